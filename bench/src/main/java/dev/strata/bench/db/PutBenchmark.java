package dev.strata.bench.db;

import dev.strata.engine.Db;
import dev.strata.engine.DbOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Random puts as {@code dbbench fillrandom} makes them (16-byte keys, 100-byte values, log on and
 * unsynced, automatic leveled compaction), one benchmark thread. Its purpose is the garbage of the
 * write path: run it with {@code -prof gc} and read {@code gc.alloc.rate.norm}, the bytes allocated
 * per put. JMH sums allocation over every thread of the JVM, so the flushes and compactions the
 * puts cause (on the engine's background threads) are charged to them too: with {@code
 * memtableMiB} small against the run, a measurement holds several flushes and compactions, and the
 * figure depends a little on how far the tree has grown (compaction rewrites more as it deepens).
 * The put path's own bytes are deterministic enough to compare on a busy machine; timings are not.
 *
 * <p>Run (from the repository root, after {@code mvn -q -pl bench -am package -DskipTests}):
 *
 * <pre>
 * java -cp bench/target/strata-bench.jar org.openjdk.jmh.Main PutBenchmark -prof gc
 * java -cp bench/target/strata-bench.jar org.openjdk.jmh.Main PutBenchmark -prof gc -wi 1 -i 2 -w 3 -r 5
 * </pre>
 *
 * <p>Not thread-safe: run with one benchmark thread (the default).
 */
// Throughput per second: a put is microseconds, and ops/s reads like dbbench's rate.
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
// Two 3 s warmups: C2 compiles the write path, and the first flushes and compactions happen.
@Warmup(iterations = 2, time = 3)
// Three 5 s iterations: each holds several memtable flushes, so their garbage is in the figure.
@Measurement(iterations = 3, time = 5)
// A fixed, pre-touched 2 GiB heap: memtables and compaction buffers never make the heap resize.
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-XX:+AlwaysPreTouch"})
@State(Scope.Benchmark)
public class PutBenchmark {
  /** Key ids drawn from this many: random inserts with some overwrites, as in fillrandom. */
  private static final long KEY_SPACE = 1L << 40;

  /**
   * 16: several flushes and compactions per measurement, their garbage included; 512: no flush in
   * a short run, so the figure is the put path's own (log record, group commit, memtable).
   */
  @Param({"16", "512"})
  int memtableMiB;

  @Param({"100"})
  int valueBytes;

  private Path dir;
  private Db db;
  private SplittableRandom random;
  private byte[] value;

  @Setup(Level.Trial)
  public void setup() throws IOException {
    dir = Files.createTempDirectory("strata-put-bench");
    DbOptions options =
        DbOptions.builder()
            .memtableBytes((long) memtableMiB << 20)
            .blockCacheBytes(8L << 20)
            .build();
    db = Db.open(dir, options);
    random = new SplittableRandom(42);
    value = new byte[valueBytes];
    random.nextBytes(value);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    db.close();
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  /** One put of a fresh random 16-byte key; the key array is part of what a caller allocates. */
  @Benchmark
  public void put() throws IOException {
    db.put(key(random.nextLong(KEY_SPACE)), value);
  }

  /** A 16-byte key whose order is the id's: big-endian id, then a fixed suffix. */
  private static byte[] key(long id) {
    byte[] k = new byte[16];
    for (int i = 0; i < 8; i++) {
      k[i] = (byte) (id >>> (56 - 8 * i));
    }
    k[8] = 'k';
    return k;
  }
}
