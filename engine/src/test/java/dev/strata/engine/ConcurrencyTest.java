package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.engine.CellModel.Op;
import dev.strata.engine.fs.FileNames;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writers and readers at once, with flushes and compactions underneath: the final state equals the
 * writers' models, an acknowledged write is visible to every later Get, batched Get and {@code
 * mayContain}, and a scan sees the database as of the moment it began, also while compaction
 * deletes the files it reads.
 */
final class ConcurrencyTest {
  private static final byte[][] COLUMNS = {{}, {'a'}, {'b'}};

  @TempDir Path dir;

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static DbOptions tinyOptions(BloomType type) {
    return DbOptions.builder()
        .bloomType(type)
        .memtableBytes(4096)
        .blockSizeBytes(256)
        .bloomChunkBytes(128)
        .blockCacheBytes(64 * 1024)
        // Data blocks off the heap under ROWCOL: readers copy them out while writers' flushes and
        // compactions evict them from the tiny cache, so slots are freed and reused all the time.
        .blockCacheOffHeapMinBytes(type == BloomType.ROWCOL ? 0 : Long.MAX_VALUE)
        .level0CompactionTrigger(2)
        .targetFileSizeBytes(4096)
        .maxBytesForLevelBase(16 * 1024)
        .levelSizeMultiplier(2)
        .build();
  }

  /** The states one writer gave a cell: index = version; null = deleted. */
  private static final class CellHistory {
    final List<byte[]> states = new CopyOnWriteArrayList<>();
    /** The newest acknowledged version, -1 before the first. */
    volatile int acknowledged = -1;
  }

  private static byte[] versioned(int version, Random r) {
    byte[] v = new byte[4 + r.nextInt(60)];
    r.nextBytes(v);
    ByteBuffer.wrap(v).putInt(version);
    return v;
  }

  /**
   * Checks one Get against the history: the result is the acknowledged version or a newer one,
   * never an older one, and never a value the writer did not write.
   */
  private static void checkVisible(CellHistory h, int acknowledgedBefore, byte[] got, String what) {
    if (got != null) {
      int version = ByteBuffer.wrap(got).getInt();
      assertTrue(
          version >= acknowledgedBefore,
          what + ": saw version " + version + " after version " + acknowledgedBefore + " was acknowledged");
      assertArrayEquals(h.states.get(version), got, what + ": not the value of version " + version);
    } else if (acknowledgedBefore >= 0) {
      boolean deletedSince = false;
      for (int v = acknowledgedBefore; v < h.states.size(); v++) {
        deletedSince |= h.states.get(v) == null;
      }
      assertTrue(deletedSince, what + ": null although version " + acknowledgedBefore + " was acknowledged and not deleted since");
    }
  }

  /**
   * One multiGet of up to 40 random cells (repeats allowed), each result checked as a Get's: the
   * batch holds one view while flushes and compactions retire the tables under it.
   */
  private static void checkBatch(Db db, List<CellModel.Key> keys,
      ConcurrentHashMap<CellModel.Key, CellHistory> histories, Random r) throws IOException {
    int n = 1 + r.nextInt(40);
    List<byte[]> rows = new ArrayList<>(n);
    List<byte[]> columns = new ArrayList<>(n);
    CellHistory[] asked = new CellHistory[n];
    int[] before = new int[n];
    for (int i = 0; i < n; i++) {
      CellModel.Key key = keys.get(r.nextInt(keys.size()));
      rows.add(key.row());
      columns.add(key.column());
      asked[i] = histories.get(key);
      before[i] = asked[i].acknowledged;
    }
    List<byte[]> got = db.multiGet(rows, columns);
    assertEquals(n, got.size(), "multiGet's answers");
    for (int i = 0; i < n; i++) {
      checkVisible(asked[i], before[i], got.get(i), "multiGet key " + i + " of " + n);
    }
  }

  @Test
  void writersAndReaders_withBackgroundWork_matchModelAndSeeAcknowledgedWrites() throws Exception {
    long seed = System.nanoTime();
    int writers = 3;
    int readers = 3;
    int rowsPerWriter = 40;
    int stepsPerWriter = 2500;
    try (Db db = Db.open(dir, tinyOptions(BloomType.ROWCOL))) {
      ConcurrentHashMap<CellModel.Key, CellHistory> histories = new ConcurrentHashMap<>();
      List<CellModel> models = new ArrayList<>();
      List<Thread> threads = new ArrayList<>();
      AtomicReference<Throwable> failure = new AtomicReference<>();
      AtomicBoolean writing = new AtomicBoolean(true);
      CountDownLatch writersDone = new CountDownLatch(writers);
      for (int w = 0; w < writers; w++) {
        CellModel model = new CellModel();
        models.add(model);
        byte[][] rows = new byte[rowsPerWriter][];
        for (int i = 0; i < rowsPerWriter; i++) {
          rows[i] = b("w" + w + "-r" + i);
          for (byte[] column : COLUMNS) {
            histories.put(new CellModel.Key(rows[i], column), new CellHistory());
          }
        }
        Random r = new Random(seed + w);
        threads.add(
            new Thread(
                () -> {
                  try {
                    for (int step = 0; step < stepsPerWriter && failure.get() == null; step++) {
                      List<Op> ops = new ArrayList<>();
                      int n = r.nextInt(5) == 0 ? 2 + r.nextInt(5) : 1;
                      for (int i = 0; i < n; i++) {
                        byte[] row = rows[r.nextInt(rows.length)];
                        int dice = r.nextInt(20);
                        ops.add(
                            dice == 0
                                ? new Op(Op.Kind.DELETE_ROW, row, null, null)
                                : dice < 3
                                    ? new Op(Op.Kind.DELETE, row, COLUMNS[r.nextInt(3)], null)
                                    : new Op(Op.Kind.PUT, row, COLUMNS[r.nextInt(3)], null));
                      }
                      // Record the new states before the write, acknowledge them after it.
                      List<CellHistory> touched = new ArrayList<>();
                      List<Integer> versions = new ArrayList<>();
                      WriteBatch batch = new WriteBatch();
                      List<Op> applied = new ArrayList<>();
                      for (Op op : ops) {
                        if (op.kind() == Op.Kind.DELETE_ROW) {
                          for (byte[] column : COLUMNS) {
                            CellHistory h = histories.get(new CellModel.Key(op.row(), column));
                            h.states.add(null);
                            touched.add(h);
                            versions.add(h.states.size() - 1);
                          }
                          applied.add(op);
                        } else {
                          CellHistory h = histories.get(new CellModel.Key(op.row(), op.column()));
                          byte[] value =
                              op.kind() == Op.Kind.PUT ? versioned(h.states.size(), r) : null;
                          h.states.add(value);
                          touched.add(h);
                          versions.add(h.states.size() - 1);
                          applied.add(new Op(op.kind(), op.row(), op.column(), value));
                        }
                      }
                      if (applied.size() == 1) {
                        applied.get(0).applyTo(db);
                      } else {
                        applied.forEach(op -> op.addTo(batch));
                        db.write(batch);
                      }
                      model.apply(applied);
                      for (int i = 0; i < touched.size(); i++) {
                        touched.get(i).acknowledged = versions.get(i);
                      }
                    }
                  } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                  } finally {
                    writersDone.countDown();
                  }
                },
                "writer-" + w));
      }
      List<CellModel.Key> keys = new ArrayList<>(histories.keySet());
      for (int t = 0; t < readers; t++) {
        Random r = new Random(seed - t - 1);
        threads.add(
            new Thread(
                () -> {
                  try {
                    while (writing.get() && failure.get() == null) {
                      int dice = r.nextInt(8);
                      if (dice == 0) {
                        checkBatch(db, keys, histories, r);
                        continue;
                      }
                      CellModel.Key key = keys.get(r.nextInt(keys.size()));
                      CellHistory h = histories.get(key);
                      int before = h.acknowledged;
                      if (dice == 1) {
                        // false is a promise of absence: as strong as a Get that found nothing
                        if (!db.mayContain(key.row(), key.column())) {
                          checkVisible(h, before, null, "mayContain " + key);
                        }
                      } else if (dice < 4) {
                        byte[] got = db.getRow(key.row()).get(key.column());
                        checkVisible(h, before, got, "getRow " + key);
                      } else {
                        checkVisible(h, before, db.get(key.row(), key.column()), "get " + key);
                      }
                    }
                  } catch (Throwable t2) {
                    failure.compareAndSet(null, t2);
                  }
                },
                "reader-" + t));
      }
      Thread flusher =
          new Thread(
              () -> {
                try {
                  for (int i = 0; writing.get() && failure.get() == null; i++) {
                    if (i % 10 == 9) {
                      db.compact();
                    } else {
                      db.flush();
                    }
                    Thread.sleep(5);
                  }
                } catch (Throwable t) {
                  failure.compareAndSet(null, t);
                }
              },
              "flusher");
      threads.add(flusher);
      threads.forEach(Thread::start);
      assertTrue(writersDone.await(120, TimeUnit.SECONDS), "writers timed out, seed " + seed);
      writing.set(false);
      for (Thread t : threads) {
        t.join(60_000);
      }
      if (failure.get() != null) {
        throw new AssertionError("seed " + seed + ": " + failure.get(), failure.get());
      }
      CellModel all = new CellModel();
      for (CellModel m : models) {
        for (byte[] row : m.rows()) {
          m.rowCells(row).forEach((k, v) -> all.put(k.row(), k.column(), v));
        }
      }
      assertEquals(all.scan(null, null), CellModel.scan(db, null, null), "seed " + seed);
      db.compact();
      assertEquals(all.scan(null, null), CellModel.scan(db, null, null), "seed " + seed);
    }
  }

  /** One cell overwritten as fast as possible with flushes every few writes; Gets never go back. */
  @Test
  void get_duringFlushes_neverReturnsAnOlderVersionThanAcknowledged() throws Exception {
    long seed = System.nanoTime();
    DbOptions options = tinyOptions(BloomType.ROW).toBuilder().memtableBytes(1024).build();
    try (Db db = Db.open(dir, options)) {
      CellHistory h = new CellHistory();
      byte[] row = b("hot");
      AtomicBoolean running = new AtomicBoolean(true);
      AtomicReference<Throwable> failure = new AtomicReference<>();
      List<Thread> readers = new ArrayList<>();
      for (int t = 0; t < 3; t++) {
        readers.add(
            new Thread(
                () -> {
                  try {
                    while (running.get()) {
                      int before = h.acknowledged;
                      checkVisible(h, before, db.get(row), "get");
                    }
                  } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                    running.set(false);
                  }
                }));
      }
      readers.forEach(Thread::start);
      Random r = new Random(seed);
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(4);
      try {
        while (running.get() && System.nanoTime() < end) {
          byte[] value = versioned(h.states.size(), r);
          value = java.util.Arrays.copyOf(value, 300); // a few per memtable
          h.states.add(value);
          db.put(row, value);
          h.acknowledged = h.states.size() - 1;
        }
      } finally {
        running.set(false);
        for (Thread t : readers) {
          t.join();
        }
      }
      if (failure.get() != null) {
        throw new AssertionError("seed " + seed + ", " + h.states.size() + " versions: " + failure.get(), failure.get());
      }
    }
  }

  private static CellModel load(Db db, int rows, String tag) throws IOException {
    CellModel model = new CellModel();
    for (int i = 0; i < rows; i++) {
      byte[] row = b(String.format("row%04d", i));
      for (byte[] column : COLUMNS) {
        byte[] value = b(tag + i + new String(column, StandardCharsets.UTF_8));
        db.put(row, column, value);
        model.put(row, column, value);
      }
      if (i % 50 == 49) {
        db.flush();
      }
    }
    return model;
  }

  @Test
  void scan_doesNotSeeWritesMadeAfterItBegan() throws Exception {
    try (Db db = Db.open(dir, tinyOptions(BloomType.ROW))) {
      CellModel model = load(db, 400, "v");
      List<String> expected = model.scan(null, null);
      try (CellScanner scan = db.scan(null, null)) {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread writer =
            new Thread(
                () -> {
                  try {
                    Random r = new Random(7);
                    for (int i = 0; i < 3000; i++) {
                      byte[] row = b(String.format("row%04d", r.nextInt(450)));
                      switch (r.nextInt(4)) {
                        case 0 -> db.deleteRow(row);
                        case 1 -> db.delete(row, COLUMNS[r.nextInt(3)]);
                        default -> db.put(row, COLUMNS[r.nextInt(3)], b("later" + i));
                      }
                    }
                    db.compact();
                  } catch (Throwable t) {
                    failure.set(t);
                  }
                });
        writer.start();
        List<String> seen = new ArrayList<>();
        while (scan.hasNext()) {
          Cell c = scan.next();
          seen.add(CellModel.describe(c.row(), c.column(), c.value()));
          if (seen.size() % 100 == 0) {
            Thread.sleep(1); // let the writer and the compactions get ahead
          }
        }
        writer.join();
        if (failure.get() != null) {
          throw new AssertionError(failure.get());
        }
        assertEquals(expected, seen);
      }
    }
  }

  @Test
  void scan_staysValidWhileCompactionDeletesItsFiles() throws Exception {
    long live;
    try (Db db = Db.open(dir, tinyOptions(BloomType.ROWCOL).toBuilder().autoCompaction(false).build())) {
      CellModel model = load(db, 400, "v");
      db.flush();
      int tablesBefore = db.stats().tableCount() > 0 ? (int) db.stats().tableCount() : 0;
      assertTrue(tablesBefore > 4, "tables: " + tablesBefore);
      List<String> expected = model.scan(null, null);
      List<String> seen = new ArrayList<>();
      try (CellScanner scan = db.scan(null, null)) {
        for (int i = 0; i < 100 && scan.hasNext(); i++) {
          Cell c = scan.next();
          seen.add(CellModel.describe(c.row(), c.column(), c.value()));
        }
        load(db, 400, "w"); // overwrite everything, then compact away every file the scan reads
        db.compact();
        assertEquals(List.of(0, 0, 0, 0, 0, 0), db.tablesPerLevel().subList(0, 6));
        while (scan.hasNext()) {
          Cell c = scan.next();
          seen.add(CellModel.describe(c.row(), c.column(), c.value()));
        }
      }
      assertEquals(expected, seen);
      live = db.stats().tableCount();
    }
    // The scan's close let the files it pinned go; the deletes thread removes them, by the
    // database's close at the latest.
    assertEquals(live, tableFiles(dir), "table files on disk");
  }

  private static long tableFiles(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(p -> p.getFileName().toString().endsWith(FileNames.TABLE_SUFFIX)).count();
    }
  }
}
