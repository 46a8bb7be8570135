package dev.strata.bench.sstable;

import dev.strata.sstable.GetResult;
import dev.strata.sstable.TableOptions;
import dev.strata.sstable.TableReader;
import dev.strata.sstable.cache.ClockBlockCache;
import dev.strata.sstable.filter.FilterProbe;
import dev.strata.sstable.filter.FilterType;
import dev.strata.sstable.key.InternalKey;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
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
 * Point Get on one table of {@code rows} rows: present and absent keys (absent keys lie inside the
 * table's row range, so only the filter can skip them), with the filter on ({@code ROW}, 10
 * bits/key, 128 KiB chunks) and off ({@code NONE}), and the block cache warm (64 MiB, holding the
 * whole table after warmup) or cold (capacity 0: every filter chunk, index and data block is read
 * from the file, through the OS page cache, checksummed and parsed on each Get).
 *
 * <p>The {@link FilterProbe} (two XXH3 hashes) is built inside the measured call, as a Get does
 * once for all its tables.
 *
 * <p>Run (from the repository root, after {@code mvn -q -pl bench package -DskipTests}):
 *
 * <pre>
 * java -cp bench/target/strata-bench.jar org.openjdk.jmh.Main SstableGetBenchmark
 * java -cp bench/target/strata-bench.jar org.openjdk.jmh.Main 'SstableGetBenchmark.getAbsent' -p cache=COLD
 * </pre>
 *
 * <p>Not thread-safe: run with one benchmark thread (the default).
 */
// Average time per Get: one Get per call, a few hundred ns warm to tens of us cold.
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
// Three 2 s warmups: C2 compiles the read path and a warm cache fills within the first.
@Warmup(iterations = 3, time = 2)
// Five 2 s iterations: enough samples for JMH's error bar on a noisy shared machine.
@Measurement(iterations = 5, time = 2)
// A fixed, pre-touched 2 GiB heap: the warm cache holds the whole table (~25 MB), so the heap never
// resizes and page faults happen before the first warmup.
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-XX:+AlwaysPreTouch"})
@State(Scope.Benchmark)
public class SstableGetBenchmark {
  /** Whether the filter is on. */
  public enum Filter {
    ON(FilterType.ROW),
    OFF(FilterType.NONE);

    final FilterType type;

    Filter(FilterType type) {
      this.type = type;
    }
  }

  /** Whether the block cache holds the table's blocks. */
  public enum Cache {
    WARM,
    COLD
  }

  /** Pooled query rows; a power of two for cheap cycling. */
  private static final int POOL = 1 << 16;

  @Param({"1000000"})
  long rows;

  @Param({"ON", "OFF"})
  Filter filter;

  @Param({"WARM", "COLD"})
  Cache cache;

  private Path dir;
  private TableReader reader;
  private byte[][] present;
  private byte[][] absent;
  private int next;

  private static final byte[] EMPTY = new byte[0];

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    dir = Files.createTempDirectory("strata-sstable-bench");
    Path file = BenchTables.write(dir, 1, rows, TableOptions.defaults().withFilterType(filter.type));
    reader = TableReader.open(file, 1, new ClockBlockCache(cache == Cache.WARM ? 64L << 20 : 0));
    SplittableRandom random = new SplittableRandom(42);
    present = new byte[POOL][];
    absent = new byte[POOL][];
    for (int i = 0; i < POOL; i++) {
      long k = random.nextLong(rows);
      present[i] = BenchTables.row(2 * k);
      absent[i] = BenchTables.row(2 * k + 1);
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    reader.close();
    BenchTables.deleteRecursively(dir);
  }

  @Benchmark
  public GetResult getPresent() throws IOException {
    byte[] row = present[next++ & (POOL - 1)];
    return reader.get(FilterProbe.of(row, EMPTY), InternalKey.MAX_SEQUENCE);
  }

  @Benchmark
  public GetResult getAbsent() throws IOException {
    byte[] row = absent[next++ & (POOL - 1)];
    return reader.get(FilterProbe.of(row, EMPTY), InternalKey.MAX_SEQUENCE);
  }
}
