package dev.strata.bench.db;

import dev.strata.engine.Db;
import dev.strata.engine.DbOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * A batch of {@code batch} Gets through {@code Db.multiGet} against the same Gets one by one, on a
 * database of {@code rows} rows, half of the keys present and half absent, in one of two layouts
 * (auto compaction off):
 *
 * <ul>
 *   <li>{@code overlapping}: {@code tables} overlapping level-0 tables, so every Get consults every
 *       table and the filters decide;
 *   <li>{@code leveled}: three quarters of the rows compacted into the last level (in 8 MiB files),
 *       the rest split evenly among {@code tables} level-0 tables and the memtable, so a Get
 *       asks the memtable, the level-0 filters and one last-level table.
 * </ul>
 *
 * <p>The target: multiGet at least 1.5x the throughput of the Gets one by one for batches
 * of 64.
 *
 * <p>Fair by construction: both methods read the same pooled batches (uniformly random keys, the
 * same seed) from the same database (same seed, incompressible values), each in its own fork after
 * the same warmup. Two block caches: {@code cacheMiB=64} holds every block (a CPU-bound read path),
 * {@code cacheMiB=4} about a sixth of them (most data blocks come from the file, through the OS
 * page cache).
 *
 * <p>Run (from the repository root, after {@code mvn -q -pl bench -am package -DskipTests}):
 *
 * <pre>
 * java -cp bench/target/strata-bench.jar org.openjdk.jmh.Main MultiGetBenchmark
 * java -cp bench/target/strata-bench.jar org.openjdk.jmh.Main MultiGetBenchmark -p rows=2000000 -p cacheMiB=16,256
 * </pre>
 *
 * <p>Not thread-safe: run with one benchmark thread (the default).
 */
// Average time per batch: compare the two methods' figures directly (same keys, same batch).
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
// Three 2 s warmups: C2 compiles both read paths and the cache fills within the first.
@Warmup(iterations = 3, time = 2)
// Five 2 s iterations: enough samples for JMH's error bar on a noisy shared machine.
@Measurement(iterations = 5, time = 2)
// A fixed, pre-touched 2 GiB heap: the cache and memtables never make the heap resize mid-run.
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-XX:+AlwaysPreTouch"})
@State(Scope.Benchmark)
public class MultiGetBenchmark {
  /** Pooled batches; a power of two for cheap cycling. */
  private static final int POOL = 1 << 10;

  @Param({"200000"})
  int rows;

  @Param({"4"})
  int tables;

  @Param({"64"})
  int batch;

  @Param({"64", "4"})
  int cacheMiB;

  @Param({"overlapping", "leveled"})
  String layout;

  private Path dir;
  private Db db;
  private List<List<byte[]>> batches;
  private int next;

  @Setup
  public void setup() throws IOException {
    dir = Files.createTempDirectory("strata-multiget-bench");
    DbOptions options =
        DbOptions.builder()
            .autoCompaction(false)
            .memtableBytes(256L << 20)
            .blockCacheBytes((long) cacheMiB << 20)
            .targetFileSizeBytes(8L << 20)
            .build();
    db = Db.open(dir, options);
    SplittableRandom random = new SplittableRandom(42);
    if (layout.equals("overlapping")) {
      for (int t = 0; t < tables; t++) {
        putEvery(t, tables, 1, random); // rows t, t + tables, ...: each table spans the key range
        db.flush();
      }
    } else if (layout.equals("leveled")) {
      putEvery(0, 4, 3, random); // three of every four rows, compacted into the last level
      db.compact();
      for (int t = 0; t <= tables; t++) { // the fourth row in tables level-0 tables and the memtable
        putEvery(3 + 4 * t, 4 * (tables + 1), 1, random);
        if (t < tables) {
          db.flush();
        }
      }
    } else {
      throw new IllegalArgumentException("layout: " + layout);
    }
    batches = new ArrayList<>(POOL);
    for (int b = 0; b < POOL; b++) {
      List<byte[]> keys = new ArrayList<>(batch);
      for (int k = 0; k < batch; k++) {
        keys.add(key(random.nextLong(2L * rows)));
      }
      batches.add(keys);
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

  /** Puts rows first, first + step, ... below {@code rows}, each with the {@code count} rows after it. */
  private void putEvery(int first, int step, int count, SplittableRandom random) throws IOException {
    for (int i = first; i < rows; i += step) {
      for (int j = i; j < i + count && j < rows; j++) {
        byte[] value = new byte[100];
        random.nextBytes(value); // incompressible: blocks cost in the cache what they cost on disk
        db.put(key(2L * j), value); // even ids present, odd ids absent
      }
    }
  }

  private static byte[] key(long id) {
    return String.format("key%012d", id).getBytes(StandardCharsets.US_ASCII);
  }

  private List<byte[]> nextBatch() {
    return batches.get(next++ & (POOL - 1));
  }

  @Benchmark
  public List<byte[]> multiGet() throws IOException {
    return db.multiGet(nextBatch());
  }

  @Benchmark
  public void oneByOne(Blackhole bh) throws IOException {
    for (byte[] k : nextBatch()) {
      bh.consume(db.get(k));
    }
  }
}
