package dev.strata.kafka.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CI smoke of the Kafka Streams benchmark: both stores, tiny sizes, real child JVMs. */
class KafkaStoreBenchmarkTest {
  @TempDir Path dir;

  @Test
  void bothStoresCountEveryEventAndRestore() throws Exception {
    KafkaStoreBenchmark.Settings s = KafkaStoreBenchmark.Settings.parse(new String[] {
        "--events", "20000", "--keys", "3000", "--cache-mb", "0.25", "--memtable-mb", "1",
        "--out", dir.toString(), "--heap", "-Xmx256m"});
    List<KafkaStoreBenchmark.Result> results = KafkaStoreBenchmark.run(s);
    assertEquals(2, results.size());
    for (KafkaStoreBenchmark.Result r : results) {
      assertEquals(20000, r.countSum(), r.engine() + ": every event counted once");
      assertEquals(3000, r.restored());
      assertTrue(r.processSeconds() > 0 && r.restoreSeconds() > 0 && r.peakRssMib() > 0,
          r.toString());
    }
    assertTrue(Files.readString(dir.resolve("report.md")).contains("| strata |"));
  }
}
