package dev.strata.sstable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.sstable.block.BlockCompression;
import dev.strata.sstable.cache.ClockBlockCache;
import dev.strata.sstable.filter.FilterType;
import dev.strata.sstable.filter.FilterProbe;
import dev.strata.sstable.format.SstableFormat;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.ValueKind;
import dev.strata.sstable.testing.Seeded;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A Get that misses its data block or index partition parses it in its thread's buffers and
 * reusable blocks, a batch keeps its missed data blocks in blocks of its own, a cursor reads a block
 * of its own: every read still finds its own rows' values, when the cache keeps the block on the
 * heap (a copy) or off it, when later misses of the same thread reuse the buffers, and when several
 * threads miss and hit the same blocks at once (a reused buffer seen by another reader, or a cached
 * block aliasing one, would return another row's value).
 */
final class BorrowedMissProperties {
  private static final byte[] EMPTY = new byte[0];
  private static final int ROWS = 6_000;

  @TempDir Path dir;

  private static byte[] row(long i) {
    return String.format("row%09d", i).getBytes(StandardCharsets.US_ASCII);
  }

  /** Row {@code i}'s value: its number spelled out, so a value from another row differs. */
  private static byte[] value(long i) {
    return String.format("value-of-row-%09d-%s", i, "x".repeat((int) (i % 50)))
        .getBytes(StandardCharsets.US_ASCII);
  }

  private Path writeRows(TableOptions options) throws IOException {
    Path file = dir.resolve(SstableFormat.fileName(1));
    try (TableWriter w = TableWriter.create(file, options)) {
      for (long i = 0; i < ROWS; i++) {
        w.add(new InternalKey(row(i), EMPTY, i + 1, ValueKind.PUT), value(i));
      }
      w.finish();
    }
    return file;
  }

  private static void get(TableReader t, int i, FilterProbe probe, CellLookup out) throws IOException {
    t.get(probe.aim(row(i), EMPTY), InternalKey.MAX_SEQUENCE, out);
    byte[] v = out.takeValue();
    assertArrayEquals(value(i), v, "row " + i);
  }

  /** Every row read twice in a striding order, through a cache that holds a few data blocks. */
  @ParameterizedTest(name = "offHeap={0}")
  @ValueSource(booleans = {false, true})
  void missesThenHits_returnEachRowsValue(boolean offHeap) throws IOException {
    Path file = writeRows(TableOptions.defaults());
    ClockBlockCache cache = new ClockBlockCache(256 << 10, 1, offHeap);
    try (TableReader t = TableReader.open(file, 1, cache)) {
      FilterProbe probe = FilterProbe.reusable();
      CellLookup out = new CellLookup();
      for (int pass = 0; pass < 2; pass++) {
        for (int j = 0; j < ROWS; j++) {
          get(t, (int) ((j * 97L) % ROWS), probe, out);
        }
      }
      assertTrue(cache.stats().data().misses() > ROWS / 2, "the Gets missed: " + cache.stats().data());
      assertTrue(cache.stats().data().hits() > 0, "the Gets hit too: " + cache.stats().data());
    } finally {
      cache.close();
    }
  }

  /** Threads reading random rows at once, missing and hitting the same blocks; seeded. */
  @ParameterizedTest(name = "offHeap={0}")
  @ValueSource(booleans = {false, true})
  void concurrentGets_returnEachRowsValue(boolean offHeap) throws Exception {
    Path file = writeRows(TableOptions.defaults());
    Seeded.run("concurrentGets offHeap=" + offHeap, 3, random -> {
      ClockBlockCache cache = new ClockBlockCache(128 << 10, 2, offHeap);
      try (TableReader t = TableReader.open(file, 1, cache)) {
        onThreads(random, r -> {
          FilterProbe probe = FilterProbe.reusable();
          CellLookup out = new CellLookup();
          // A narrow band of rows shared by every thread: the same blocks missed and hit at once.
          int base = r.nextInt(ROWS / 2);
          for (int n = 0; n < 20_000; n++) {
            get(t, base + r.nextInt(ROWS / 2), probe, out);
          }
        });
      } finally {
        cache.close();
      }
    });
  }

  /**
   * Threads mixing Gets, batches (present and absent rows, sorted) and cursor runs over small
   * blocks and partitions through a cache that holds a few of them, each answer checked against the
   * model (row i holds value(i), rows from ROWS on are absent); seeded. Off the heap the cache keeps
   * the partitions the reads miss there too, and evicts them: a Get copies one into its thread's
   * partition, a batch into blocks of its own (searched in lock step with 256-byte blocks, whose
   * partitions are many), a cursor into a new block.
   */
  @ParameterizedTest(name = "offHeap={0}, blockBytes={1}")
  @CsvSource({"false, 512", "true, 512", "true, 256"})
  void concurrentGetsBatchesAndCursors_agreeWithTheModel(boolean offHeap, int blockBytes) throws Exception {
    Path file = writeRows(new TableOptions(blockBytes, FilterType.NONE, TableOptions.DEFAULT_BITS_PER_KEY,
        TableOptions.DEFAULT_FILTER_CHUNK_BYTES, BlockCompression.LZ4));
    Seeded.run("mixedReads offHeap=" + offHeap + " blockBytes=" + blockBytes, 3, random -> {
      ClockBlockCache cache = new ClockBlockCache(16 << 10, 2, offHeap);
      try (TableReader t = TableReader.open(file, 1, cache)) {
        onThreads(random, r -> mixedReads(t, r));
        assertTrue(cache.stats().index().misses() > 0, "partitions missed: " + cache.stats().index());
        assertTrue(cache.stats().index().hits() > 0, "partitions hit: " + cache.stats().index());
        assertTrue(cache.stats().index().evictions() > 0, "partitions evicted: " + cache.stats().index());
      } finally {
        cache.close();
      }
    });
  }

  /** One thread's reads, from its own generator. */
  private interface Reads {
    void run(Random r) throws IOException;
  }

  /** Runs {@code reads} on four threads at once, each seeded from {@code random}; throws what any threw. */
  private static void onThreads(Random random, Reads reads) throws Exception {
    int threads = 4;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int k = 0; k < threads; k++) {
        long seed = random.nextLong();
        done.add(pool.submit(() -> {
          reads.run(new Random(seed));
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
  }

  private static void mixedReads(TableReader t, Random r) throws IOException {
    FilterProbe probe = FilterProbe.reusable();
    CellLookup out = new CellLookup();
    int batch = 32;
    FilterProbe[] probes = new FilterProbe[batch];
    CellLookup[] outs = new CellLookup[batch];
    for (int k = 0; k < batch; k++) {
      probes[k] = FilterProbe.reusable();
      outs[k] = new CellLookup();
    }
    for (int n = 0; n < 1_500; n++) {
      switch (r.nextInt(3)) {
        case 0 -> {
          out.clear();
          get(t, r.nextInt(ROWS), probe, out);
        }
        case 1 -> {
          int count = 1 + r.nextInt(batch);
          int[] rows = r.ints(count, 0, ROWS + ROWS / 10).sorted().distinct().toArray();
          for (int k = 0; k < rows.length; k++) {
            probes[k].aim(row(rows[k]), EMPTY);
            outs[k].clear();
          }
          t.getAll(probes, rows.length, InternalKey.MAX_SEQUENCE, outs);
          for (int k = 0; k < rows.length; k++) {
            byte[] v = outs[k].takeValue();
            if (rows[k] < ROWS) {
              assertArrayEquals(value(rows[k]), v, "batch row " + rows[k]);
            } else {
              assertNull(v, "absent batch row " + rows[k]);
            }
          }
        }
        default -> {
          int from = r.nextInt(ROWS);
          try (TableIterator it = t.iterator()) {
            it.seek(new InternalKey(row(from), EMPTY, InternalKey.MAX_SEQUENCE, ValueKind.PUT));
            for (int i = from; i < Math.min(ROWS, from + 40); i++) {
              assertTrue(it.isValid(), "cursor at row " + i);
              assertArrayEquals(row(i), it.key().row(), "cursor row");
              assertArrayEquals(value(i), it.value(), "cursor value of row " + i);
              it.next();
            }
            if (from + 40 >= ROWS) {
              assertFalse(it.isValid(), "cursor past the last row");
            }
          }
        }
      }
    }
  }
}
