package dev.strata.bench.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.bench.StrataBench;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CI smoke of {@code strata-bench ycsb}: every phase of both engines through YCSB's real client
 * in child JVMs, with tiny counts; the CSV must hold every engine, workload and operation, with no
 * failed operation, and the report and plot must be written.
 */
class YcsbCommandTest {
  @TempDir Path dir;

  @Test
  void everyPhaseOfBothEnginesLandsInTheCsv() throws Exception {
    Path out = dir.resolve("out");
    int status = StrataBench.commandLine().execute("ycsb", "--records", "1500",
        "--operations", "1500", "--tree", "smoke", "--cache-mb", "1", "--out", out.toString(),
        "--jvm-args", "-Xmx256m -XX:TieredStopAtLevel=1");
    assertEquals(0, status);
    List<YcsbRow> rows = YcsbResults.read(out.resolve(YcsbResults.FILE));
    Set<String> expected = new TreeSet<>();
    for (String engine : List.of("strata", "rocksdb")) {
      for (String op : List.of("load/INSERT", "a/READ", "a/UPDATE", "b/READ", "b/UPDATE",
          "c/READ", "f/READ", "f/READ-MODIFY-WRITE", "d/READ", "d/INSERT", "load-e/INSERT",
          "e/SCAN", "e/INSERT")) {
        expected.add(engine + "/" + op);
      }
      for (String w : List.of("load", "a", "b", "c", "f", "d", "load-e", "e")) {
        expected.add(engine + "/" + w + "/" + YcsbRow.OVERALL);
      }
    }
    Set<String> got = rows.stream().map(r -> r.engine() + "/" + r.workload() + "/" + r.operation())
        .collect(Collectors.toCollection(TreeSet::new));
    assertTrue(got.containsAll(expected), "missing rows: " + diff(expected, got));
    for (YcsbRow r : rows) {
      assertEquals(1, r.threads());
      assertEquals(0, r.failed(), "failed operations in " + r);
      assertTrue(r.operations() > 0 && r.opsPerSec() > 0, "nothing measured in " + r);
      if (r.operation().equals(YcsbRow.OVERALL)) {
        assertEquals(1500, r.operations(), 1, "operations of " + r);
      } else {
        assertTrue(r.p50Us() != null && r.p99Us() >= r.p50Us() && r.maxUs() >= r.p999Us(),
            "latencies of " + r);
      }
    }
    String report = Files.readString(out.resolve("report.md"));
    assertTrue(report.contains("| client threads | load | a | b | c | f | d | load-e | e |"));
    assertTrue(Files.size(out.resolve("ycsb.png")) > 0);
  }

  /**
   * RocksDB alone, into a folder whose parent does not exist yet: its open creates only the last
   * directory of the path, so the run must create the databases' folder itself (Strata's open
   * creates the whole path, which hid this while Strata ran first).
   */
  @Test
  void rocksDbAlone_loadsIntoAFreshFolder() throws Exception {
    Path out = dir.resolve("alone");
    int status = StrataBench.commandLine().execute("ycsb", "--records", "500",
        "--operations", "500", "--tree", "smoke", "--cache-mb", "1", "--out", out.toString(),
        "--engines", "rocksdb", "--workloads", "load", "--db-dir", dir.resolve("new/dbs").toString(),
        "--jvm-args", "-Xmx256m -XX:TieredStopAtLevel=1");
    assertEquals(0, status);
    List<YcsbRow> rows = YcsbResults.read(out.resolve(YcsbResults.FILE));
    assertTrue(rows.stream().anyMatch(r -> r.engine().equals("rocksdb") && r.workload().equals("load")
        && r.operation().equals(YcsbRow.OVERALL) && r.operations() == 500 && r.failed() == 0), rows.toString());
  }

  private static Set<String> diff(Set<String> expected, Set<String> got) {
    Set<String> missing = new TreeSet<>(expected);
    missing.removeAll(got);
    return missing;
  }
}
