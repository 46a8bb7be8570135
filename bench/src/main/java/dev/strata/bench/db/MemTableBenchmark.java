package dev.strata.bench.db;

import dev.strata.engine.memtable.MemTable;
import dev.strata.engine.memtable.MemTableIterator;
import dev.strata.engine.memtable.MemTableMemory;
import dev.strata.sstable.key.ValueKind;
import java.nio.charset.StandardCharsets;
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
 * The memtable alone, at the engine's default size: the time of filling a 64 MiB memtable with keys
 * in random order (the write path's insert, with no log or flush beside it), and of walking the
 * full memtable in key order the way a flush reads it (encoded key, value). Keys are
 * dbbench's (16 decimal digits) with 100-byte values, or YCSB's ({@code user} and a hashed number)
 * with 1,000-byte values: the first puts about half a million entries in the memtable, the second
 * about sixty thousand.
 *
 * <pre>
 * java -cp bench/target/strata-bench.jar org.openjdk.jmh.Main MemTableBenchmark
 * </pre>
 *
 * <p>Not thread-safe: one benchmark thread.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
// Each invocation is a whole memtable: a few warmups compile insert and walk.
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@State(Scope.Benchmark)
public class MemTableBenchmark {
  private static final long MEMTABLE_BYTES = 64L << 20;

  /** Keys sized for more entries than the memtable takes. */
  private static final int KEYS = 600_000;

  @Param({"dbbench-100", "ycsb-1000"})
  String shape;

  private byte[][] keys;
  private byte[] value;
  private MemTableMemory memory;
  private MemTable full;
  private int fullEntries;
  private final byte[] keyBuffer = new byte[256];

  @Setup(Level.Trial)
  public void setUp() {
    SplittableRandom r = new SplittableRandom(42);
    boolean ycsb = shape.startsWith("ycsb");
    keys = new byte[KEYS][];
    for (int i = 0; i < KEYS; i++) {
      String k = ycsb
          ? "user" + Long.toUnsignedString(r.nextLong())
          : String.format("%016d", r.nextLong(50_000_000L));
      keys[i] = k.getBytes(StandardCharsets.US_ASCII);
    }
    value = new byte[ycsb ? 1000 : 100];
    r.nextBytes(value);
    memory = MemTableMemory.pooled(MEMTABLE_BYTES);
    full = new MemTable(MEMTABLE_BYTES, memory);
    fullEntries = fill(full);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    full.release();
    memory.close();
  }

  private int fill(MemTable table) {
    byte[] column = new byte[0];
    int n = 0;
    while (table.approximateBytes() < MEMTABLE_BYTES && n < KEYS) {
      table.add(ValueKind.PUT, keys[n], column, n + 1, value);
      n++;
    }
    return n;
  }

  /** A fill of a fresh memtable up to its budget, in random key order. */
  @Benchmark
  public int fillPerMemtable() {
    MemTable table = new MemTable(MEMTABLE_BYTES, memory);
    int n = fill(table);
    table.release();
    return n;
  }

  /** A walk of the whole memtable in key order, reading each entry as a flush does. */
  @Benchmark
  public long walkPerMemtable() {
    long sum = 0;
    try (MemTableIterator it = full.iterator()) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        int length = it.encodedKeyLength();
        it.encodeKey(keyBuffer);
        sum += length + it.valueLength() + it.valueArray()[0];
      }
    }
    return sum + fullEntries;
  }
}
