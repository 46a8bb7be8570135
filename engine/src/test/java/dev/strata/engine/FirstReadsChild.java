package dev.strata.engine;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The child processes of {@link FirstReadsLoadNoClassTest}. {@code fill DIR} makes a database with
 * tables at level 0 and below it; {@code read DIR}, in a fresh JVM, opens it and runs each kind of
 * read once, printing a marker line before each and after the last, then {@code ok}. The parent
 * reads the JVM's class-loading log between the markers. After the first marker the child makes
 * no lambda and concatenates no string, so every class loaded there is the engine's doing. {@code
 * read DIR heap default} opens without {@code warmUpOnOpen}.
 */
final class FirstReadsChild {
  /** Rows per table; every row has {@link #COLUMNS} columns. */
  static final int ROWS = 2000;

  static final int COLUMNS = 3;

  /** Printed before each first read, and once after the last. */
  static final String MARK = "first-read-marker";

  private FirstReadsChild() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[1]);
    // A third argument "off-heap" reads through a cache that keeps data blocks off the heap; a
    // fourth, "default", opens without the warm-up.
    boolean offHeap = args.length > 2 && args[2].equals("off-heap");
    boolean warmUp = args.length <= 3 || !args[3].equals("default");
    DbOptions options = DbOptions.builder().warmUpOnOpen(warmUp).autoCompaction(false)
        .blockSizeBytes(512).blockCacheOffHeapMinBytes(offHeap ? 0 : Long.MAX_VALUE).build();
    if (args[0].equals("fill")) {
      try (Db db = Db.open(dir, options)) {
        fill(db, 0);
        db.compact(); // below level 0
        fill(db, 1);
        if (db.tablesPerLevel().get(0) == 0 || db.tablesPerLevel().stream().skip(1).allMatch(n -> n == 0)) {
          throw new AssertionError("tables at level 0 and below it: " + db.tablesPerLevel());
        }
      }
      return;
    }
    byte[] empty = new byte[0];
    byte[] row = row(ROWS / 2);
    List<byte[]> batchRows = new ArrayList<>();
    List<byte[]> batchColumns = new ArrayList<>();
    for (int i = 0; i < ROWS; i += 97) {
      batchRows.add(row(i));
      batchColumns.add(column(i % COLUMNS));
    }
    try (Db db = Db.open(dir, options)) {
      System.out.println(MARK);
      byte[] value = db.get(row, column(0));
      System.out.println(MARK);
      List<byte[]> values = db.multiGet(batchRows, batchColumns);
      System.out.println(MARK);
      int cells = 0;
      try (CellCursor c = db.cursor()) {
        for (c.seek(row, empty); c.isValid() && cells < 10; c.next()) {
          cells++;
        }
      }
      System.out.println(MARK);
      int columns = db.getRow(row).size();
      System.out.println(MARK);
      if (value == null || values.contains(null) || cells != 10 || columns != COLUMNS) {
        throw new AssertionError("wrong answers");
      }
    }
    System.out.println("ok");
  }

  /** Writes every row (version {@code round}) and flushes them into a table. */
  private static void fill(Db db, int round) throws Exception {
    for (int i = 0; i < ROWS; i++) {
      for (int c = 0; c < COLUMNS; c++) {
        db.put(row(i), column(c), ("v" + round + "-" + i).getBytes(StandardCharsets.UTF_8));
      }
    }
    db.flush();
  }

  private static byte[] row(int i) {
    return String.format("row%06d", i).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] column(int c) {
    return new byte[] {(byte) ('a' + c)};
  }
}
