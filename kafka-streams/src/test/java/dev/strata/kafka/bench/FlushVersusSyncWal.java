package dev.strata.kafka.bench;

import dev.strata.engine.Db;
import dev.strata.engine.DbOptions;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Random;

/**
 * What the store's {@code flush()} costs made durable either way: rounds of random puts (a commit
 * interval's writes), each ended by {@link Db#flush} (a memtable flush, as Kafka's RocksDB store
 * does) or by {@link Db#syncWal} (an fsync of the log), alternated twice; prints the time per call,
 * the run's time until compaction is idle, and the tables left.
 *
 * <pre>
 * java -cp ... dev.strata.kafka.bench.FlushVersusSyncWal DIR ROUNDS PUTS_PER_ROUND
 * </pre>
 *
 * <p>Not thread-safe: a process's main.
 */
public final class FlushVersusSyncWal {
  private FlushVersusSyncWal() {}

  public static void main(String[] args) throws IOException, InterruptedException {
    Path out = Path.of(args[0]);
    int rounds = Integer.parseInt(args[1]);
    int puts = Integer.parseInt(args[2]);
    for (String mode : new String[] {"syncWal", "flush", "syncWal", "flush"}) {
      Random random = new Random(1);
      long callNanos = 0;
      long start = System.nanoTime();
      DbOptions options = DbOptions.builder().blockCacheBytes(1 << 20).memtableBytes(8 << 20)
          .build();
      try (Db db = Db.open(out.resolve(mode + "-" + start), options)) {
        for (int r = 0; r < rounds; r++) {
          for (int i = 0; i < puts; i++) {
            db.put(ByteBuffer.allocate(12).putInt(0x6b65792d).putLong(random.nextInt(1_000_000))
                .array(), new byte[8]);
          }
          long t = System.nanoTime();
          if (mode.equals("flush")) {
            db.flush();
          } else {
            db.syncWal();
          }
          callNanos += System.nanoTime() - t;
        }
        while (db.backgroundWorkPending()) {
          Thread.sleep(10);
        }
        System.out.printf(Locale.ROOT, "%s: %.1f ms per call, %.1f s in all, tables per level %s%n",
            mode, callNanos / 1e6 / rounds, (System.nanoTime() - start) / 1e9,
            db.tablesPerLevel());
      }
    }
  }
}
