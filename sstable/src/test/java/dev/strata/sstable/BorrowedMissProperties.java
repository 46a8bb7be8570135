package dev.strata.sstable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.sstable.cache.ClockBlockCache;
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
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A Get that misses its data block parses it in its thread's buffers and scratch block: every Get
 * still finds its own value, when the cache keeps the block on the heap (a copy) or off it, when
 * later misses of the same thread reuse the buffers, and when several threads miss and hit the
 * same blocks at once (a reused buffer seen by another reader, or a cached block aliasing one,
 * would return another row's value).
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
      int threads = 4;
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      try (TableReader t = TableReader.open(file, 1, cache)) {
        List<Future<?>> done = new ArrayList<>();
        for (int k = 0; k < threads; k++) {
          long seed = random.nextLong();
          done.add(pool.submit(() -> {
            Random r = new Random(seed);
            FilterProbe probe = FilterProbe.reusable();
            CellLookup out = new CellLookup();
            // A narrow band of rows shared by every thread: the same blocks missed and hit at once.
            int base = r.nextInt(ROWS / 2);
            for (int n = 0; n < 20_000; n++) {
              get(t, base + r.nextInt(ROWS / 2), probe, out);
            }
            return null;
          }));
        }
        for (Future<?> f : done) {
          f.get();
        }
      } finally {
        pool.shutdown();
        cache.close();
      }
    });
  }
}
