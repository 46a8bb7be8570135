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
 * Cached Gets through {@code Db.get}, one key per call, present or absent, at any number of JMH
 * threads ({@code -t}): the targets that cached Gets scale (2 threads at least 1.8x one) and
 * that a Get allocates nothing for a table its filter skips and about its value for a present cell
 * ({@code -prof gc}, {@code gc.alloc.rate.norm}).
 *
 * <p>The database: {@code rows} rows of 100-byte values in {@code tables} overlapping level-0 tables
 * (auto compaction off), so every Get consults every table whose filter admits the key; the block
 * cache holds every block (unless {@code cacheMiB} is set low), so the figure is the CPU-bound read
 * path. {@code present=false} reads odd ids, none of which was written: each table's filter
 * answers, no index or data block is read.
 *
 * <p>Run (from the repository root, after {@code mvn -q -pl bench -am package -DskipTests}):
 *
 * <pre>
 * java -cp bench/target/strata-bench.jar org.openjdk.jmh.Main GetBenchmark -t 1 -prof gc
 * java -cp bench/target/strata-bench.jar org.openjdk.jmh.Main GetBenchmark -t 2
 * java -cp bench/target/strata-bench.jar org.openjdk.jmh.Main GetBenchmark -p present=true -p cacheMiB=1 \
 *     -p offHeap=false,true -t 1 -prof gc
 * </pre>
 *
 * <p>Thread-safe: the database is shared, each benchmark thread draws keys from its own generator.
 */
// Throughput, so figures at different -t compare directly (total Gets per second over all threads).
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
// Three 1 s warmups: C2 compiles the read path; the cache is warmed in setup.
@Warmup(iterations = 3, time = 1)
// Five 1 s iterations: short enough for a shared machine, enough samples for an error bar.
@Measurement(iterations = 5, time = 1)
// A fixed, pre-touched 1 GiB heap: the heap never resizes mid-run.
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
@State(Scope.Benchmark)
public class GetBenchmark {
  @Param({"200000"})
  int rows;

  @Param({"4"})
  int tables;

  @Param({"true", "false"})
  boolean present;

  /** Data blocks held off the heap in the block cache ({@code blockCacheOffHeapMinBytes} 0). */
  @Param({"false"})
  boolean offHeap;

  /**
   * The block cache's capacity in MiB. At 256 it holds every block; at 1 it keeps the tables' index
   * and filter blocks but few of their data blocks (about 24 MB), so a present Get misses its data
   * block: the miss path (the block read from the page cache, checked, offered to the cache).
   */
  @Param({"256"})
  int cacheMiB;

  private Path dir;
  private Db db;

  /** Each benchmark thread's keys: its own generator and key buffer. */
  @State(Scope.Thread)
  public static class Keys {
    private final SplittableRandom random = new SplittableRandom(Thread.currentThread().getId());
    private final byte[] key = new byte[15];

    byte[] next(int rows, boolean present) {
      long id = 2L * random.nextInt(rows) + (present ? 0 : 1);
      return GetBenchmark.fill(key, id);
    }
  }

  @Setup
  public void setup() throws IOException {
    dir = Files.createTempDirectory("strata-get-bench");
    DbOptions options =
        DbOptions.builder()
            .autoCompaction(false)
            .memtableBytes(256L << 20)
            .blockCacheBytes((long) cacheMiB << 20)
            .blockCacheOffHeapMinBytes(offHeap ? 0 : Long.MAX_VALUE)
            .build();
    db = Db.open(dir, options);
    SplittableRandom random = new SplittableRandom(42);
    for (int t = 0; t < tables; t++) {
      for (int i = t; i < rows; i += tables) {
        byte[] value = new byte[100];
        random.nextBytes(value);
        db.put(fill(new byte[15], 2L * i), value); // even ids present, odd ids absent
      }
      db.flush();
    }
    byte[] key = new byte[15];
    for (int i = 0; i < rows; i++) { // warm the block cache: every block is read once
      db.get(fill(key, 2L * i));
    }
  }

  @TearDown
  public void tearDown() throws IOException {
    db.close();
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  /** "key" and {@code id} in 12 decimal digits, written into {@code key} (15 bytes). */
  static byte[] fill(byte[] key, long id) {
    key[0] = 'k';
    key[1] = 'e';
    key[2] = 'y';
    for (int i = 14; i >= 3; i--) {
      key[i] = (byte) ('0' + id % 10);
      id /= 10;
    }
    return key;
  }

  @Benchmark
  public byte[] get(Keys keys) throws IOException {
    return db.get(keys.next(rows, present));
  }
}
