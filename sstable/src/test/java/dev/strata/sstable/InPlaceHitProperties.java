package dev.strata.sstable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
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
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Gets through an off-heap cache far smaller than the tables agree with a model while the blocks
 * they hit are evicted and their slots reused under them: several threads read present and absent
 * rows of several tables whose blocks take different numbers of slots, so a block searched in place
 * may be replaced mid-search by a block of another table, of another length or at another offset;
 * and a thread drops whole tables from the cache now and then. A search that accepted another
 * block's bytes would return another row's value, or none, or a value for an absent row.
 */
final class InPlaceHitProperties {
  private static final byte[] EMPTY = new byte[0];
  private static final int TABLES = 3;
  private static final int ROWS = 3_000;
  private static final int READERS = 3;

  @TempDir Path dir;

  private static byte[] row(int i) {
    return String.format("row%08d", i).getBytes(StandardCharsets.US_ASCII);
  }

  /** Row {@code i}'s value in table {@code t}: both spelled out, its length varying by table and row. */
  private static byte[] value(int t, int i) {
    return String.format("t%d-row-%08d-%s", t, i, "x".repeat((i * (t + 3)) % (40 + 60 * t)))
        .getBytes(StandardCharsets.US_ASCII);
  }

  /** Table {@code t} holds the rows {@code i} with {@code i % TABLES == t}, so each row is in one table. */
  private Path write(int t) throws IOException {
    Path file = dir.resolve(SstableFormat.fileName(t + 1));
    try (TableWriter w = TableWriter.create(file, TableOptions.defaults())) {
      for (int i = t; i < ROWS; i += TABLES) {
        if (i % 7 != 3) { // some rows absent from their table
          w.add(new InternalKey(row(i), EMPTY, i + 1, ValueKind.PUT), value(t, i));
        }
      }
      w.finish();
    }
    return file;
  }

  @Test
  void getsThroughATinyOffHeapCache_agreeWithTheModel() throws Exception {
    Path[] files = new Path[TABLES];
    for (int t = 0; t < TABLES; t++) {
      files[t] = write(t);
    }
    Seeded.run("in-place hits under eviction", 3, random -> {
      ClockBlockCache cache = new ClockBlockCache((48 << 10) + random.nextInt(96 << 10), 1 + random.nextInt(2), true);
      TableReader[] tables = new TableReader[TABLES];
      ExecutorService pool = Executors.newFixedThreadPool(READERS + 1);
      AtomicBoolean reading = new AtomicBoolean(true);
      try {
        for (int t = 0; t < TABLES; t++) {
          tables[t] = TableReader.open(files[t], t + 1, cache);
        }
        List<Future<?>> readers = new ArrayList<>();
        for (int k = 0; k < READERS; k++) {
          long seed = random.nextLong();
          readers.add(pool.submit(() -> {
            read(tables, new Random(seed));
            return null;
          }));
        }
        long evictorSeed = random.nextLong();
        Future<?> evictor = pool.submit(() -> {
          Random r = new Random(evictorSeed);
          while (reading.get()) {
            cache.evictFiles(Set.of((long) (1 + r.nextInt(TABLES))));
            Thread.sleep(r.nextInt(3));
          }
          return null;
        });
        for (Future<?> f : readers) {
          f.get();
        }
        reading.set(false);
        evictor.get();
        assertTrue(cache.stats().data().hits() > 0, "the Gets hit: " + cache.stats().data());
      } finally {
        reading.set(false);
        pool.shutdown();
        for (TableReader t : tables) {
          if (t != null) {
            t.close();
          }
        }
        cache.close();
      }
    });
  }

  /** Gets of random rows, each checked against the model; a narrow band, so blocks are hit while others evict them. */
  private static void read(TableReader[] tables, Random r) throws IOException {
    FilterProbe probe = FilterProbe.reusable();
    CellLookup out = new CellLookup();
    int base = r.nextInt(ROWS / 2);
    for (int n = 0; n < 15_000; n++) {
      int i = base + r.nextInt(ROWS / 2);
      int t = i % TABLES;
      tables[t].get(probe.aim(row(i), EMPTY), InternalKey.MAX_SEQUENCE, out);
      byte[] v = out.takeValue();
      if (i % 7 == 3) {
        assertNull(v, "row " + i + " is absent");
      } else {
        assertArrayEquals(value(t, i), v, "row " + i + " of table " + t);
      }
    }
  }
}
