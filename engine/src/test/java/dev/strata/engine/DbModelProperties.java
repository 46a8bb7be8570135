package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.strata.engine.CellModel.Op;
import dev.strata.engine.memtable.SortedGroup;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The store's stateful property: random sequences of writes, reads, flushes, compactions and
 * reopens against a {@link CellModel}, and snapshots held across all of them, each
 * checked against a copy of the model taken with it, for every bloom type (and, at random, filter
 * allocation, Ribbon level and metadata cached on write), with auto compaction on and off, tiny
 * memtables, blocks and filter chunks, so flushes and compactions happen all the time, and bulk
 * loads of random triggers opened and closed at random (held from the start in a third of the
 * walks), so level 0 is compacted at moving triggers. After every step the database must give
 * exactly the model's answers.
 *
 * <p>Seeds: a few fixed ones plus one fresh seed per configuration; a failure names its seed, the
 * options and the last actions. Replay one seed by adding it to {@link #SEEDS} locally.
 */
final class DbModelProperties {
  /** Fixed seeds, so every build covers the same ground besides the fresh one. */
  private static final long[] SEEDS = {1, 0xC0FFEEL};

  /** Actions per sequence. */
  private static final int STEPS = 700;

  /** Actions shown in a failure message. */
  private static final int HISTORY = 40;

  /** A small alphabet of rows, so rows collide: binary, prefixes of each other, 0x00 and 0xff. */
  private static final byte[][] ROWS = {
    {0}, {0, 0}, {(byte) 0xff}, {(byte) 0xff, 0}, {'a'}, {'a', 'b'}, {'a', 0}, {'b'}, {1, 2, 3},
    {'r', 'o', 'w'}, {(byte) 0x80}, {'z', (byte) 0xff, (byte) 0xff},
  };

  /** A wider set of rows that some writes go to, so tables fill and compaction reaches deep levels. */
  private static final byte[][] WIDE_ROWS = wideRows(48);

  /** Columns, including the empty column (the key-value view) and 0x00/0xff. */
  private static final byte[][] COLUMNS = {
    {}, {0}, {(byte) 0xff}, {'c'}, {'c', 'd'}, {'c', 0}, {(byte) 0xff, (byte) 0xff}, {'q'},
  };

  /** Scan bounds besides the rows themselves: rows between and around the alphabet. */
  private static final byte[][] EXTRA_BOUNDS = {{}, {0, 0, 0}, {'a', 'a'}, {'a', 0, 0}, {(byte) 0x7f}};

  @TempDir Path dir;

  private static byte[][] wideRows(int n) {
    byte[][] rows = new byte[n][];
    for (int i = 0; i < n; i++) {
      rows[i] = new byte[] {'w', (byte) (i * 5), (byte) i};
    }
    return rows;
  }

  static Stream<Arguments> configurations() {
    List<Arguments> out = new ArrayList<>();
    for (BloomType type : BloomType.values()) {
      for (boolean auto : new boolean[] {false, true}) {
        for (long seed : SEEDS) {
          out.add(Arguments.of(type, auto, seed));
        }
        out.add(Arguments.of(type, auto, System.nanoTime()));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} auto={1} seed={2}")
  @MethodSource("configurations")
  void db_matchesModel(BloomType bloomType, boolean autoCompaction, long seed) throws Exception {
    new Walk(new Random(seed), options(new Random(seed ^ 0x5EED), bloomType, autoCompaction), seed)
        .run();
  }

  private static DbOptions options(Random r, BloomType bloomType, boolean autoCompaction) {
    // A direct read goes to the disk every time, about a hundred times a page-cache hit: with half
    // the walks direct and half of those without a block cache, this class took 100-220 s of a CI
    // run instead of 25-35. A quarter of the walks read directly, always through a block cache.
    boolean direct = r.nextInt(4) == 0;
    return DbOptions.builder()
        .bloomType(bloomType)
        .bloomBitsPerKey(1 + r.nextInt(12))
        .memtableBytes(2048 + r.nextInt(6 * 1024))
        .blockSizeBytes(64 + r.nextInt(256))
        .bloomChunkBytes(64 + r.nextInt(128))
        .blockCacheBytes(r.nextBoolean() && !direct ? 0 : 1 << (10 + r.nextInt(12)))
        .compression(r.nextBoolean() ? Compression.LZ4 : Compression.NONE)
        .autoCompaction(autoCompaction)
        .level0CompactionTrigger(2 + r.nextInt(2))
        .targetFileSizeBytes(512 + r.nextInt(2048))
        .maxBytesForLevelBase(2048 + r.nextInt(4096))
        .levelSizeMultiplier(2)
        .prefixBloomLength(r.nextInt(3) == 0 ? 0 : 1 + r.nextInt(3))
        .maxSubcompactions(1 + r.nextInt(3))
        .multiGetThreads(r.nextInt(3)) // batches on their caller, or in parts on 1 or 2 helpers
        .useDirectReads(direct)
        .compactionReadaheadBytes(r.nextBoolean() ? 0 : 1 << (6 + r.nextInt(16)))
        .blockCacheOffHeapMinBytes(r.nextBoolean() ? 0 : Long.MAX_VALUE) // data blocks off heap or not
        // Filters per table: bits by level or uniform, Ribbon chunks from a random level (0: every
        // table; MAX_VALUE: never), metadata cached as written or not.
        .filterAllocation(FilterAllocation.values()[r.nextInt(FilterAllocation.values().length)])
        .ribbonFromLevel(r.nextInt(4) == 0 ? Integer.MAX_VALUE : r.nextInt(3))
        .cacheMetadataOnWrite(r.nextBoolean())
        .filterMemoryBytes(r.nextInt(3) == 0 ? 64 + r.nextInt(4096) : 0) // often 1 bit per key
        .build();
  }

  /** A snapshot the walk holds and the model as it was when the snapshot was taken. */
  private record HeldSnapshot(Snapshot snapshot, CellModel model) {}

  /** One random walk over one directory. */
  private final class Walk {
    private final Random r;
    private final DbOptions options;
    private final long seed;
    private final CellModel model = new CellModel();
    private final ArrayDeque<String> history = new ArrayDeque<>();
    /** Live snapshots, each with a copy of the model as it was when taken. */
    private final List<HeldSnapshot> snapshots = new ArrayList<>();
    private Db db;
    private int step;
    /** The bulk load the walk holds open, or null. */
    private BulkLoad bulk;

    Walk(Random r, DbOptions options, long seed) {
      this.r = r;
      this.options = options;
      this.seed = seed;
    }

    void run() throws Exception {
      db = Db.open(dir, options);
      try {
        if (r.nextInt(3) == 0) {
          toggleBulkLoad();
        }
        for (step = 0; step < STEPS; step++) {
          act();
          checkAll();
        }
        db.compact();
        note("compact (final)");
        checkAll();
      } catch (Throwable t) {
        throw new AssertionError(
            "seed "
                + seed
                + " failed at step "
                + step
                + " with "
                + options
                + "\nlast actions:\n  "
                + String.join("\n  ", history)
                + "\n"
                + t,
            t);
      } finally {
        db.close();
      }
    }

    /** Takes a snapshot, closes one, or reads through one; at most a few are held at once. */
    private void actOnSnapshots() throws IOException {
      int dice = r.nextInt(3);
      if (dice == 0 && snapshots.size() < 3) {
        note("snapshot");
        snapshots.add(new HeldSnapshot(db.snapshot(), model.copy()));
      } else if (dice == 1 && !snapshots.isEmpty()) {
        note("close snapshot");
        snapshots.remove(r.nextInt(snapshots.size())).snapshot().close();
      } else if (!snapshots.isEmpty()) {
        HeldSnapshot h = snapshots.get(r.nextInt(snapshots.size()));
        byte[] row = row();
        byte[] column = column();
        note("snapshot get/getRow " + CellModel.hex(row) + "/" + CellModel.hex(column));
        checkSnapshot(h, row, column);
      }
    }

    /**
     * A cursor, now or at a held snapshot, moved by random seeks and runs of next and prev against
     * the model (or the snapshot's copy of it).
     */
    private void walkCursor() throws IOException {
      boolean atSnapshot = !snapshots.isEmpty() && r.nextBoolean();
      HeldSnapshot h = atSnapshot ? snapshots.get(r.nextInt(snapshots.size())) : null;
      note(atSnapshot ? "cursor at a snapshot" : "cursor");
      byte[][] rows = r.nextInt(3) == 0 ? WIDE_ROWS : ROWS;
      try (CellCursor c = atSnapshot ? db.cursor(h.snapshot()) : db.cursor()) {
        new CursorWalk(atSnapshot ? h.model() : model, r, this::note).run(c, 3, 8, rows, COLUMNS);
      }
    }

    /** Reads through a held snapshot equal its model copy: a cell, a row, and a full scan. */
    private void checkSnapshot(HeldSnapshot h, byte[] row, byte[] column) throws IOException {
      assertEquals(
          CellModel.describeValue(h.model().get(row, column)),
          CellModel.describeValue(db.get(h.snapshot(), row, column)),
          () -> "snapshot get " + CellModel.hex(row) + "/" + CellModel.hex(column));
      assertEquals(
          h.model().describeRow(row),
          CellModel.describeRow(row, db.getRow(h.snapshot(), row)),
          () -> "snapshot getRow " + CellModel.hex(row));
      List<String> scanned = new ArrayList<>();
      try (CellScanner s = db.scan(h.snapshot(), null, null)) {
        s.forEachRemaining(c -> scanned.add(CellModel.describe(c.row(), c.column(), c.value())));
      }
      assertEquals(h.model().scan(null, null), scanned, "snapshot full scan");
    }

    private void note(String action) {
      history.addLast(step + ": " + action);
      if (history.size() > HISTORY) {
        history.removeFirst();
      }
    }

    /** Opens a bulk load of a random level-0 trigger, or closes the one held. */
    private void toggleBulkLoad() {
      if (bulk == null) {
        int tables = 1 + r.nextInt(12);
        note("bulk load of " + tables + " tables");
        bulk = db.bulkLoad(tables);
      } else {
        note("bulk load ends");
        bulk.close();
        bulk = null;
      }
    }

    private void act() throws IOException {
      int dice = r.nextInt(117);
      if (dice >= 114) {
        toggleBulkLoad();
        return;
      }
      if (dice >= 108) {
        walkCursor();
        return;
      }
      if (dice >= 100) {
        actOnSnapshots();
        return;
      }
      if (dice < 30) {
        Op op = new Op(Op.Kind.PUT, row(), column(), value());
        note(op.toString());
        op.applyTo(db);
        op.applyTo(model);
      } else if (dice < 36) {
        byte[] key = row();
        byte[] value = value();
        note("put(key) " + CellModel.describe(key, new byte[0], value));
        db.put(key, value);
        model.put(key, new byte[0], value);
      } else if (dice < 44) {
        Op op = new Op(Op.Kind.DELETE, row(), column(), null);
        note(op.toString());
        op.applyTo(db);
        op.applyTo(model);
      } else if (dice < 47) {
        byte[] key = row();
        note("delete(key) " + CellModel.hex(key));
        db.delete(key);
        model.delete(key, new byte[0]);
      } else if (dice < 53) {
        Op op = new Op(Op.Kind.DELETE_ROW, row(), null, null);
        note(op.toString());
        op.applyTo(db);
        op.applyTo(model);
      } else if (dice < 62) {
        List<Op> ops = new ArrayList<>();
        WriteBatch batch = new WriteBatch();
        // A quarter of the batches are large enough to be inserted in key order (SortedGroup),
        // with the same cells put, deleted and row-deleted several times in one batch.
        int size =
            r.nextInt(4) == 0 ? SortedGroup.MIN_ENTRIES + r.nextInt(100) : r.nextInt(8);
        for (int i = size; i >= 0; i--) {
          int kind = r.nextInt(10);
          Op op =
              kind < 6
                  ? new Op(Op.Kind.PUT, row(), column(), value())
                  : kind < 8
                      ? new Op(Op.Kind.DELETE, row(), column(), null)
                      : new Op(Op.Kind.DELETE_ROW, row(), null, null);
          ops.add(op);
          op.addTo(batch);
        }
        note("batch " + ops);
        db.write(batch);
        model.apply(ops);
      } else if (dice < 70) {
        byte[] row = row();
        byte[] column = column();
        note("get " + CellModel.hex(row) + "/" + CellModel.hex(column));
        checkGet(row, column);
      } else if (dice < 78) {
        byte[] row = row();
        note("getRow " + CellModel.hex(row));
        checkRow(row);
      } else if (dice < 86) {
        byte[] from = bound();
        byte[] to = bound();
        note("scan " + (from == null ? "null" : CellModel.hex(from)) + ".." + (to == null ? "null" : CellModel.hex(to)));
        assertEquals(model.scan(from, to), CellModel.scan(db, from, to), "scan");
      } else if (dice < 94) {
        note("flush");
        db.flush();
      } else if (dice < 95) {
        note("compact");
        db.compact();
      } else {
        note("reopen");
        snapshots.clear(); // closing the database invalidates them
        bulk = null; // a load ends with its database
        db.close();
        db = Db.open(dir, options);
      }
    }

    /** Every cell of the alphabet, every row, and a full scan equal the model. */
    private void checkAll() throws IOException {
      for (byte[] row : ROWS) {
        for (byte[] column : COLUMNS) {
          checkGet(row, column);
        }
        checkRow(row);
      }
      for (int i = 0; i < 6; i++) {
        byte[] row = WIDE_ROWS[r.nextInt(WIDE_ROWS.length)];
        checkGet(row, column());
        checkRow(row);
      }
      assertEquals(model.scan(null, null), CellModel.scan(db, null, null), "full scan");
      checkBatchedGets();
      checkPrefixScan();
      for (HeldSnapshot h : snapshots) {
        checkSnapshot(h, row(), column());
      }
      assertEquals(snapshots.size(), db.stats().snapshots().live(), "live snapshots");
    }

    /**
     * A batch of random cells, duplicates included, read with multiGet equals the model cell by
     * cell; mayContain is never false for a live cell of it.
     */
    private void checkBatchedGets() throws IOException {
      List<byte[]> rows = new ArrayList<>();
      List<byte[]> columns = new ArrayList<>();
      for (int i = r.nextInt(40); i >= 0; i--) {
        rows.add(row());
        columns.add(r.nextInt(4) == 0 ? new byte[0] : column());
      }
      List<byte[]> got = db.multiGet(rows, columns);
      List<byte[]> keys = db.multiGet(rows);
      for (int i = 0; i < rows.size(); i++) {
        byte[] want = model.get(rows.get(i), columns.get(i));
        assertEquals(CellModel.describeValue(want), CellModel.describeValue(got.get(i)), "multiGet " + i);
        assertEquals(
            CellModel.describeValue(model.get(rows.get(i), new byte[0])),
            CellModel.describeValue(keys.get(i)),
            "multiGet(keys) " + i);
        if (want != null) {
          assertEquals(true, db.mayContain(rows.get(i), columns.get(i)), "mayContain of a live cell");
        }
      }
    }

    /**
     * A prefix scan of a random prefix (of a row of the alphabet, cut at a random length, or a
     * bound) equals the model's cells of the rows starting with it, whatever the prefix filter.
     */
    private void checkPrefixScan() throws IOException {
      byte[] row = r.nextBoolean() ? row() : EXTRA_BOUNDS[r.nextInt(EXTRA_BOUNDS.length)];
      byte[] prefix = java.util.Arrays.copyOf(row, r.nextInt(row.length + 1));
      List<String> want = new ArrayList<>();
      for (java.util.Map.Entry<CellModel.Key, byte[]> e : model.cells().entrySet()) {
        byte[] k = e.getKey().row();
        if (k.length >= prefix.length && java.util.Arrays.equals(k, 0, prefix.length, prefix, 0, prefix.length)) {
          want.add(CellModel.describe(k, e.getKey().column(), e.getValue()));
        }
      }
      List<String> got = new ArrayList<>();
      try (CellScanner s = db.scanPrefix(prefix)) {
        s.forEachRemaining(c -> got.add(CellModel.describe(c.row(), c.column(), c.value())));
      }
      assertEquals(want, got, () -> "scanPrefix " + CellModel.hex(prefix));
    }

    private void checkGet(byte[] row, byte[] column) throws IOException {
      String expected = CellModel.describeValue(model.get(row, column));
      assertEquals(expected, CellModel.describeValue(db.get(row, column)), () -> "get " + CellModel.hex(row) + "/" + CellModel.hex(column));
      if (column.length == 0) {
        assertEquals(expected, CellModel.describeValue(db.get(row)), () -> "get(key) " + CellModel.hex(row));
      }
    }

    private void checkRow(byte[] row) throws IOException {
      assertEquals(
          model.describeRow(row),
          CellModel.describeRow(row, db.getRow(row)),
          () -> "getRow " + CellModel.hex(row));
    }

    private byte[] row() {
      if (r.nextInt(3) == 0) {
        return WIDE_ROWS[r.nextInt(WIDE_ROWS.length)];
      }
      return ROWS[r.nextInt(ROWS.length)];
    }

    private byte[] column() {
      return COLUMNS[r.nextInt(COLUMNS.length)];
    }

    private byte[] bound() {
      int n = r.nextInt(ROWS.length + EXTRA_BOUNDS.length + 3);
      if (n < ROWS.length) {
        return ROWS[n];
      }
      n -= ROWS.length;
      return n < EXTRA_BOUNDS.length ? EXTRA_BOUNDS[n] : null;
    }

    private byte[] value() {
      int n = r.nextInt(200);
      byte[] v;
      if (n == 0) {
        v = new byte[100_000 + r.nextInt(1000)];
      } else if (n < 10) {
        v = new byte[0];
      } else {
        v = new byte[1 + r.nextInt(n < 100 ? 8 : 300)];
      }
      r.nextBytes(v);
      if (v.length > 0) {
        v[0] = (byte) step; // values differ between steps even when short
      }
      return v;
    }
  }
}
