package dev.strata.bench.dbbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.bench.CliRun;
import dev.strata.engine.Db;
import dev.strata.engine.DbOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * The CI smoke of {@code dbbench}: every benchmark on every engine configuration, each phase in its
 * own child JVM, with tiny sizes; every row and every column of {@code results.csv} checked for
 * presence and sanity; the report, plots and options written; failures reported, never hung.
 */
final class DbBenchCommandTest {
  /** Children get a small heap: the smoke data is a few megabytes. */
  private static final String CHILD_JVM = "-Xmx256m -XX:TieredStopAtLevel=1";

  @TempDir Path tmp;

  @Test
  void dbbench_smoke_everyBenchmarkAndEngine_fillsEveryColumnSanely() throws IOException {
    Path out = tmp.resolve("out");
    CliRun run = CliRun.of("dbbench", "--profile", "smoke", "--threads", "2",
        "--duration", "0.3", "--warmup", "0.1", "--jvm-args", CHILD_JVM, "--out", out.toString(),
        "--benchmarks", "fillseq,fillrandom,overwrite,readrandom,readmissing,seekrandom,"
            + "seekrandomreverse,multireadrandom,prefixscanrandom,readwhilewriting,"
            + "readwhileoverwriting,getrowrandom");
    assertEquals(0, run.status(), run.err() + run.out());
    List<Result> rows = ResultsFile.read(out.resolve("results.csv"));

    Set<String> expected = new HashSet<>();
    for (String write : List.of("fillseq", "fillrandom", "overwrite", "fillrows")) {
      expected.add("strata|" + write + "|1");
      expected.add("rocksdb-lru|" + write + "|1");
    }
    // Readers beside the writer: once per thread count, on each database.
    expected.add("strata|readwhileoverwriting|2");
    expected.add("rocksdb-lru|readwhileoverwriting|2");
    for (String read : List.of("readrandom", "readmissing", "seekrandom", "seekrandomreverse",
        "multireadrandom", "prefixscanrandom", "readwhilewriting", "getrowrandom")) {
      for (String engine : List.of("strata", "rocksdb-lru", "rocksdb-hcc")) {
        expected.add(engine + "|" + read + "|2");
      }
    }
    Set<String> seen = new HashSet<>();
    for (Result r : rows) {
      assertTrue(seen.add(r.get(Column.ENGINE) + "|" + r.get(Column.BENCHMARK) + "|"
          + r.get(Column.THREADS)), "duplicate row " + r.get(Column.BENCHMARK));
      checkSane(r, true);
      if (r.benchmark() == Benchmark.OVERWRITE || r.benchmark().writesUnderReads()) {
        assertEquals(r.number(Column.NUM), r.number(Column.OPS), "--writes is --num by default");
      }
    }
    assertEquals(expected, seen);

    Set<Column> filled = EnumSet.noneOf(Column.class);
    for (Result r : rows) {
      for (Column c : Column.values()) {
        if (!r.get(c).isEmpty()) {
          filled.add(c);
        }
      }
    }
    assertEquals(EnumSet.allOf(Column.class), filled, "every column holds a value somewhere");

    String report = Files.readString(out.resolve("report.md"));
    assertTrue(report.contains("## Parity") && report.contains("## Trees"), report);
    for (String png : List.of("throughput_vs_threads.png", "latency_percentiles.png",
        "bytes_read_per_op.png")) {
      assertTrue(Files.size(out.resolve(png)) > 1000, png);
    }
    String rocksOptions = Files.readString(out.resolve("options/rocksdb-lru-narrow.OPTIONS"));
    assertTrue(rocksOptions.contains("max_bytes_for_level_base=4194304"), "tree settings applied");
    assertTrue(rocksOptions.contains("level_compaction_dynamic_level_bytes=false"));
    assertTrue(Files.exists(out.resolve("options/rocksdb-hcc-narrow.OPTIONS")));
    String strataOptions = Files.readString(out.resolve("options/strata-narrow.txt"));
    assertTrue(strataOptions.contains("maxBytesForLevelBase=4194304"), strataOptions);
    assertFalse(Files.exists(out.resolve(".tmp")), "the temporary folder is deleted");
  }

  @Test
  void dbbench_coldCacheState_evictsAndReportsTheFirstOperations() throws IOException {
    Path out = tmp.resolve("cold");
    // 20,000 cells outgrow the smoke profile's 1 MiB memtable, so the reads go to tables: 5,000
    // could stay in the log, replayed into the memtable at each open, and read nothing from a file.
    CliRun run = CliRun.of("dbbench", "--profile", "smoke", "--num", "20000", "--threads", "1",
        "--duration", "0.2", "--warmup", "0", "--cache-states", "warm,cold",
        "--engines", "strata,rocksdb-lru", "--benchmarks", "fillrandom,readrandom",
        "--jvm-args", CHILD_JVM, "--out", out.toString());
    assertEquals(0, run.status(), run.err() + run.out());
    List<String> states = new ArrayList<>();
    for (Result r : ResultsFile.read(out.resolve("results.csv"))) {
      checkSane(r, false);
      if (r.benchmark() == Benchmark.READRANDOM) {
        states.add(r.engine().label() + "|" + r.cacheState());
      }
    }
    assertEquals(List.of("strata|warm", "rocksdb-lru|warm", "strata|cold", "rocksdb-lru|cold"),
        states);

    assertTrue(Files.exists(out.resolve("db").resolve(FillRecord.FILE)), "the fill is recorded");
    // Reading these databases as if they held other keys is refused before any phase runs.
    CliRun other = CliRun.of("dbbench", "--profile", "smoke", "--num", "6000", "--threads", "1",
        "--use-existing-db", "--db-dir", out.resolve("db").toString(), "--benchmarks", "readrandom",
        "--jvm-args", CHILD_JVM, "--out", tmp.resolve("other").toString());
    assertEquals(2, other.status(), other.err() + other.out());
    assertTrue(other.err().contains("were filled with other settings")
        && other.err().contains("num: filled with 20000, this run 6000"), other.err());
    assertFalse(Files.exists(tmp.resolve("other").resolve("results.csv")), "no phase ran");
  }

  @Test
  void dbbench_readWithoutADatabase_isAUsageError() {
    CliRun run = CliRun.of("dbbench", "--profile", "smoke", "--benchmarks", "readrandom",
        "--out", tmp.resolve("x").toString());
    assertEquals(2, run.status());
    assertTrue(run.err().contains("readrandom needs a database"), run.err());
    CliRun engines = CliRun.of("dbbench", "--profile", "smoke", "--engines", "leveldb",
        "--out", tmp.resolve("y").toString());
    assertEquals(2, engines.status());
    assertTrue(engines.err().contains("unknown engine 'leveldb'"), engines.err());
  }

  @Test
  void dbbench_failingChild_failsTheRunNamingThePhaseAndItsLog() {
    CliRun run = CliRun.of("dbbench", "--profile", "smoke", "--use-existing-db",
        "--benchmarks", "readrandom", "--engines", "strata", "--threads", "1",
        "--db-dir", tmp.resolve("empty").toString(), "--jvm-args", CHILD_JVM,
        "--out", tmp.resolve("z").toString());
    assertEquals(1, run.status());
    assertTrue(run.err().contains("readrandom on strata, 1 thread, warm: the child process failed"),
        run.err());
    assertTrue(run.err().contains("needs the database"), run.err());
    assertTrue(run.err().contains("no " + FillRecord.FILE + " in "), "unchecked, and says so");
  }

  @Test
  void dbbench_hungChild_isKilledAtTheTimeout() throws IOException {
    Path record = tmp.resolve("t").resolve("db").resolve(FillRecord.FILE);
    Files.createDirectories(record.getParent());
    Files.writeString(record, "num=50000000\n"); // an earlier fill's
    long start = System.nanoTime();
    CliRun run = CliRun.of("dbbench", "--profile", "smoke", "--num", "50000000",
        "--benchmarks", "fillrandom", "--engines", "strata", "--phase-timeout", "2",
        "--jvm-args", CHILD_JVM, "--out", tmp.resolve("t").toString());
    assertEquals(1, run.status());
    assertTrue(run.err().contains("did not finish within 2 s and was killed"), run.err());
    assertTrue(System.nanoTime() - start < 60_000_000_000L, "the timeout bounds the wait");
    assertFalse(Files.exists(record), "a killed fill leaves no record vouching for its database");
  }

  @Test
  void dbbench_kilobyteValuesZipfianKeys_andReadsAfterOverwritesUnderReads() throws IOException {
    Path out = tmp.resolve("shapes");
    CliRun run = CliRun.of("dbbench", "--profile", "smoke", "--num", "4000", "--threads", "1",
        "--duration", "0.2", "--warmup", "0.1", "--value-bytes", "1000",
        "--key-distribution", "zipfian", "--writes", "1500", "--seed", "7",
        "--engines", "strata,rocksdb-lru",
        "--benchmarks", "fillrandom,overwrite,readrandom,readwhileoverwriting,readrandom",
        "--jvm-args", CHILD_JVM, "--out", out.toString());
    assertEquals(0, run.status(), run.err() + run.out());
    List<String> seen = new ArrayList<>();
    for (Result r : ResultsFile.read(out.resolve("results.csv"))) {
      checkSane(r, false);
      String where = r.get(Column.ENGINE) + " " + r.get(Column.BENCHMARK);
      assertEquals(1000.0, r.number(Column.VALUE_SIZE), where);
      assertEquals("zipfian", r.get(Column.KEY_DISTRIBUTION), where);
      seen.add(r.get(Column.STEP) + "|" + r.get(Column.ENGINE) + "|" + r.get(Column.BENCHMARK));
      if (r.benchmark() == Benchmark.OVERWRITE || r.benchmark().writesUnderReads()) {
        assertEquals(1500.0, r.number(Column.OPS), "--writes puts: " + where);
      }
    }
    List<String> expected = new ArrayList<>();
    String[] names = {"fillrandom", "overwrite", "readrandom", "readwhileoverwriting", "readrandom"};
    for (int i = 0; i < names.length; i++) {
      for (String engine : List.of("strata", "rocksdb-lru")) {
        expected.add((i + 1) + "|" + engine + "|" + names[i]);
      }
    }
    assertEquals(expected, seen, "readrandom measured before and after the overwrites");
    String report = Files.readString(out.resolve("report.md"));
    assertTrue(report.contains("| random keys (--key-distribution) | zipfian |")
        && report.contains("| key bytes / value bytes | 16 / 1000 |"), report);
    assertStoredValuesHaveBytes(out.resolve("db"), 4000, 7, 1000);

    // The databases hold 1000-byte values: reading them as 100-byte ones is refused, naming it.
    CliRun other = CliRun.of("dbbench", "--profile", "smoke", "--num", "4000", "--threads", "1",
        "--use-existing-db", "--db-dir", out.resolve("db").toString(), "--benchmarks",
        "readwhileoverwriting", "--jvm-args", CHILD_JVM, "--out", tmp.resolve("o").toString());
    assertEquals(2, other.status(), other.err() + other.out());
    assertTrue(other.err().contains("value_bytes: filled with 1000, this run 100"), other.err());
    assertFalse(Files.exists(tmp.resolve("o").resolve("results.csv")), "no phase ran");
  }

  @Test
  void dbbench_badShapeOptions_areUsageErrors() {
    for (List<String> bad : List.of(List.of("--key-distribution", "latest"),
        List.of("--writes", "0"), List.of("--value-bytes", "-1"))) {
      List<String> args = new ArrayList<>(List.of("dbbench", "--profile", "smoke",
          "--benchmarks", "fillrandom", "--out", tmp.resolve("bad").toString()));
      args.addAll(bad);
      CliRun run = CliRun.of(args.toArray(String[]::new));
      assertEquals(2, run.status(), bad + ": " + run.err());
      assertTrue(run.err().contains(bad.get(0)), bad + ": " + run.err());
    }
  }

  /**
   * Reads keys of a fill of {@code num} keys with {@code seed} (its first, middle and last) back from both engines'
   * databases in {@code dbDir}: every value is {@code bytes} long, so the engines stored what
   * {@code --value-bytes} asked for, not only the results' value_size column.
   */
  private static void assertStoredValuesHaveBytes(Path dbDir, long num, long seed, int bytes)
      throws IOException {
    KeySpace keys = new KeySpace(num, seed);
    long[] indices = {0, num / 2, num - 1};
    DbOptions readOnly = DbOptions.builder().readOnly(true).build();
    try (Db db = Db.open(dbDir.resolve(EngineKind.STRATA.storage()), readOnly)) {
      for (long i : indices) {
        assertEquals(bytes, db.get(keys.key(i)).length, "Strata's value of key " + i);
      }
    }
    RocksDB.loadLibrary();
    try (RocksDB db = RocksDB.openReadOnly(
        dbDir.resolve(EngineKind.ROCKSDB_LRU.storage()).toString())) {
      for (long i : indices) {
        assertEquals(bytes, db.get(keys.key(i)).length, "RocksDB's value of key " + i);
      }
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }

  /**
   * Checks the cells every row of its kind must hold, and their relations; with {@code tree}, that
   * every write phase left data below level 0 (the data is large enough for compactions).
   */
  private static void checkSane(Result r, boolean tree) {
    String where = r.get(Column.ENGINE) + " " + r.get(Column.BENCHMARK) + " t"
        + r.get(Column.THREADS) + " " + r.cacheState();
    for (Column c : List.of(Column.OPS, Column.SECONDS, Column.OPS_PER_SEC, Column.P50_US,
        Column.MAX_US, Column.HEAP_LIVE_MIB, Column.RSS_MIB, Column.PEAK_RSS_MIB, Column.OPEN_MS)) {
      assertTrue(r.number(c) != null && r.number(c) > 0, c.label() + " of " + where);
    }
    assertTrue(r.number(Column.P50_US) <= r.number(Column.P99_US)
        && r.number(Column.P99_US) <= r.number(Column.P999_US)
        && r.number(Column.P999_US) <= r.number(Column.P9999_US)
        && r.number(Column.P9999_US) <= r.number(Column.MAX_US), "percentiles of " + where);
    assertTrue(r.number(Column.RSS_MIB) <= r.number(Column.PEAK_RSS_MIB), where);
    for (Column c : List.of(Column.GC_COUNT, Column.GC_MS, Column.GC_MAX_MS)) {
      assertTrue(r.number(c) != null && r.number(c) >= 0, c.label() + " of " + where);
    }
    assertFalse(r.get(Column.TABLES_PER_LEVEL).isEmpty(), where);
    String[] tables = r.get(Column.TABLES_PER_LEVEL).split(" ");
    String[] filters = r.get(Column.FILTER_KIB_PER_LEVEL).split(" ");
    assertEquals(tables.length, filters.length, "a filter figure per level, " + where);
    double filterKib = 0;
    for (int i = 0; i < tables.length; i++) {
      double kib = Double.parseDouble(filters[i]);
      assertTrue(Integer.parseInt(tables[i]) > 0 || kib == 0, "level " + i + " of " + where);
      filterKib += kib;
    }
    // Every table has a filter (ROW by default in both engines).
    assertTrue(filterKib > 0, "filter bytes of " + where + ": " + r.get(Column.FILTER_KIB_PER_LEVEL));
    assertTrue(Arrays.stream(r.get(Column.INDEX_KIB).split(" ")).mapToDouble(Double::parseDouble)
        .sum() > 0, "index bytes of " + where);
    boolean rocks = r.engine().isRocksDb();
    Benchmark b = r.benchmark();
    if (b.isRead()) {
      for (Column c : List.of(Column.BYTES_READ_PER_OP, Column.RCHAR_PER_OP,
          Column.READ_BYTES_PER_OP, Column.FILTER_BLOCKS_READ_PER_OP,
          Column.INDEX_BLOCKS_READ_PER_OP, Column.DATA_BLOCKS_READ_PER_OP,
          Column.FILTER_HITS_PER_OP, Column.INDEX_HITS_PER_OP, Column.DATA_HITS_PER_OP,
          Column.FILTER_USEFUL_PER_OP, Column.FIRST_OP_US, Column.FIRST_1000_OPS_MS,
          Column.FOUND_PER_OP)) {
        assertTrue(r.number(c) != null && r.number(c) >= 0, c.label() + " of " + where);
      }
      assertEquals(!rocks, r.number(Column.RATIO_TO_ROCKSDB_LRU) != null, where);
      if (!rocks && b == Benchmark.READRANDOM) {
        // Every present Get consults an index of each table it reads: a block read or a cache hit.
        // The cells hold 6 significant digits, so two that sum to exactly 1 may read 0.99999994
        // (1.84942E-4 + 0.999815 failed this once): compare with that rounding allowed.
        double indexPerOp =
            r.number(Column.INDEX_BLOCKS_READ_PER_OP) + r.number(Column.INDEX_HITS_PER_OP);
        assertTrue(indexPerOp >= 1.0 - 1e-5, where + ": " + indexPerOp);
      }
      double found = r.number(Column.FOUND_PER_OP);
      switch (b) {
        case READRANDOM, MULTIREADRANDOM, READWHILEWRITING -> assertEquals(1.0, found, where);
        case READMISSING -> assertEquals(0.0, found, where);
        case SEEKRANDOM, SEEKRANDOMREVERSE ->
            assertTrue(found > 9 && found <= 10, where + ": " + found);
        case PREFIXSCANRANDOM -> assertTrue(found >= 1 && found < 64, where + ": " + found);
        case GETROWRANDOM -> assertEquals(10.0, found, where);
        default -> throw new AssertionError(b);
      }
      assertTrue(r.number(Column.BYTES_READ_PER_OP) > 0 || b == Benchmark.READMISSING, where);
      boolean writes = b == Benchmark.READWHILEWRITING;
      assertEquals(writes, r.number(Column.WRITER_OPS_PER_SEC) != null, where);
      // Every read phase waits for the tree to rest after its warm-up (readwhilewriting after its
      // writer too): a read-triggered compaction the warm-up started never runs into the measurement.
      assertTrue(r.number(Column.QUIESCE_S) != null && r.number(Column.QUIESCE_S) >= 0, where);
      assertEquals(writes, r.number(Column.STALL_MS) != null, where);
    } else {
      boolean readers = b.writesUnderReads();
      for (Column c : List.of(Column.READER_OPS_PER_SEC, Column.READER_P50_US,
          Column.READER_P99_US, Column.READER_MAX_US)) {
        assertEquals(readers, r.number(c) != null && r.number(c) > 0, c.label() + " of " + where);
      }
      if (readers) {
        assertTrue(r.number(Column.READER_P50_US) <= r.number(Column.READER_P99_US)
            && r.number(Column.READER_P99_US) <= r.number(Column.READER_MAX_US), where);
        assertEquals(1.0, r.number(Column.FOUND_PER_OP), "readers find every key: " + where);
        assertEquals(!rocks, r.number(Column.READER_RATIO_TO_ROCKSDB) != null, where);
      }
      assertTrue(r.number(Column.WRITE_AMP_WCHAR) >= 1, "write amplification of " + where);
      assertTrue(r.number(Column.MAX_PUT_MS) > 0 && r.number(Column.QUIESCE_S) >= 0, where);
      assertTrue(r.number(Column.PUTS_OVER_100MS) <= r.number(Column.PUTS_OVER_50MS)
          && r.number(Column.PUTS_OVER_50MS) <= r.number(Column.PUTS_OVER_10MS), where);
      double others = r.number(Column.OTHERS_CPU_PCT);
      assertTrue(others >= 0 && others <= 100, where + ": others' CPU " + others);
      // Each put over 10 ms adds more than 10 ms, and none takes longer than the longest put.
      double slowMs = r.number(Column.MS_IN_PUTS_OVER_10MS);
      double slowPuts = r.number(Column.PUTS_OVER_10MS);
      assertTrue(slowMs >= 10 * slowPuts && slowMs <= slowPuts * r.number(Column.MAX_PUT_MS),
          where);
      assertTrue(r.number(Column.STALL_MS) != null && r.number(Column.STALL_MS) >= 0, where);
      assertEquals(!rocks, r.number(Column.RATIO_TO_ROCKSDB_LRU) != null, where);
      // A fill puts --num keys (fillrows: its rows), an overwrite phase --writes puts (--num unless
      // given, which the callers check), and neither reports reads of its own.
      if (b == Benchmark.FILLSEQ || b == Benchmark.FILLRANDOM) {
        assertEquals(r.number(Column.NUM), r.number(Column.OPS), "ops of " + where);
      } else if (b != Benchmark.FILLROWS) {
        assertTrue(r.number(Column.OPS) <= r.number(Column.NUM), "ops of " + where);
      }
      for (Column c : List.of(Column.BYTES_READ_PER_OP, Column.FILTER_BLOCKS_READ_PER_OP,
          Column.INDEX_BLOCKS_READ_PER_OP, Column.DATA_BLOCKS_READ_PER_OP, Column.FIRST_OP_US,
          Column.WRITER_OPS_PER_SEC)) {
        assertNull(r.number(c), c.label() + " of " + where);
      }
      assertTrue(!tree || r.get(Column.TABLES_PER_LEVEL).contains(" "),
          "the write built a tree below level 0: " + where + " " + r.get(Column.TABLES_PER_LEVEL));
    }
  }
}
