package dev.strata.bench.sstable;

import dev.strata.sstable.GetResult;
import dev.strata.sstable.TableOptions;
import dev.strata.sstable.TableReader;
import dev.strata.sstable.cache.ClockBlockCache;
import dev.strata.sstable.filter.FilterProbe;
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
 * Latency of the first Get after opening a table of {@code rows} rows (5 million by default, a 6 MB
 * filter at 10 bits/key) with a fresh, empty block cache: the Get must load a filter chunk before
 * anything else. With the filter partitioned into 128 KiB chunks it loads one chunk; with one
 * whole-table chunk ({@code chunkBytes} = 1 GiB) it loads, checksums and copies the whole filter,
 * which is what made first Gets slow on HBase's large store files before compound Bloom filters.
 * The table file is in the OS page cache after the first iteration, so this measures the CPU and
 * copy cost of the lazy load, not the disk.
 *
 * <p>Run (from the repository root, after {@code mvn -q -pl bench package -DskipTests}):
 *
 * <pre>
 * java -cp bench/target/strata-bench.jar org.openjdk.jmh.Main SstableFirstGetBenchmark
 * java -cp bench/target/strata-bench.jar org.openjdk.jmh.Main SstableFirstGetBenchmark -p rows=1000000
 * </pre>
 *
 * <p>Not thread-safe: run with one benchmark thread (the default).
 */
// One Get per measured invocation, after an unmeasured open: single-shot time is exactly that.
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
// Ten unmeasured shots warm the JIT and bring the file into the page cache.
@Warmup(iterations = 10)
// Fifty shots: single shots are noisy, and each is cheap after the trial setup.
@Measurement(iterations = 50)
// A fixed, pre-touched 2 GiB heap: the whole-table chunk is ~6 MB per load, allocated per shot;
// the heap never resizes and page faults happen before the first shot.
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-XX:+AlwaysPreTouch"})
@State(Scope.Benchmark)
public class SstableFirstGetBenchmark {
  private static final byte[] EMPTY = new byte[0];

  @Param({"5000000"})
  long rows;

  // 128 KiB chunks (the default) vs one chunk for the whole table.
  @Param({"131072", "1073741824"})
  int chunkBytes;

  private Path dir;
  private Path file;
  private TableReader reader;
  private final SplittableRandom random = new SplittableRandom(7);
  private long fileNumber = 1;

  @Setup(Level.Trial)
  public void writeTable() throws IOException {
    dir = Files.createTempDirectory("strata-first-get-bench");
    file = BenchTables.write(dir, 1, rows, TableOptions.defaults().withFilterChunkBytes(chunkBytes));
  }

  @Setup(Level.Invocation)
  public void open() throws IOException {
    reader = TableReader.open(file, fileNumber++, new ClockBlockCache(256L << 20));
  }

  @TearDown(Level.Invocation)
  public void close() throws IOException {
    reader.close();
  }

  @TearDown(Level.Trial)
  public void deleteTable() throws IOException {
    BenchTables.deleteRecursively(dir);
  }

  @Benchmark
  public GetResult firstGet() throws IOException {
    byte[] row = BenchTables.row(2 * random.nextLong(rows));
    return reader.get(FilterProbe.of(row, EMPTY), InternalKey.MAX_SEQUENCE);
  }
}
