package dev.strata.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.engine.Db;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.ThreadMetadata;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two instances of an exactly-once count ({@link StandbyCountApp}, one standby replica): the
 * active one in a child JVM, the standby in this one. While the standby applies the changelog over
 * many of Kafka Streams' commits (every 100 ms), its store must hold every count, and commits must
 * cut no level-0 table: the memtables are large enough that only a flush asked for by something
 * else would write one. Then the active instance is killed with SIGKILL; the promoted standby must
 * serve every count, go on counting, and its store must have left the restore's bulk load.
 */
class StandbyBrokerTest {
  private static final long WAIT_MS = 90_000;
  private static final int ROUNDS = 8;
  private static final int PER_ROUND = 1_000;

  @TempDir Path dir;

  @Test
  void aStandbyAppliesTheChangelogWithoutATablePerCommit_andServesEveryCountOncePromoted()
      throws Exception {
    try (KafkaClusterTestKit cluster =
             BrokerCluster.start(dir.resolve("kafka"), StandbyCountApp.TOPIC, 1)) {
      String bootstrap = cluster.bootstrapServers();
      Map<String, Long> expected = new TreeMap<>();
      ChangelogRestoreBrokerTest.produce(bootstrap, 0, PER_ROUND, expected);
      Path output = dir.resolve("active.log");
      Process active = new ProcessBuilder(
          Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
          "-cp", System.getProperty("java.class.path"), StandbyCountApp.class.getName(),
          bootstrap, dir.resolve("state-a").toString())
          .redirectErrorStream(true).redirectOutput(output.toFile()).start();
      ObservedStores stores = new ObservedStores(StandbyCountApp.STORE,
          StrataStores.keyValueStore(StandbyCountApp.STORE, StandbyCountApp.OPTIONS));
      KafkaStreams standby = null;
      try {
        try {
          awaitCommitted(cluster, PER_ROUND, active, output);
          standby = StandbyCountApp.start(bootstrap, dir.resolve("state-b"), stores);
          awaitStandbyTask(standby, active, output);
          checkStandby(bootstrap, standby, open(stores), expected);
        } finally {
          active.destroyForcibly(); // SIGKILL: no close, no last commit
          active.waitFor(30, TimeUnit.SECONDS);
        }
        ChangelogRestoreBrokerTest.awaitStore(
            standby, StandbyCountApp.STORE, expected, false); // served by an active task now
        ChangelogRestoreBrokerTest.produce(bootstrap, ROUNDS * PER_ROUND, PER_ROUND, expected);
        ChangelogRestoreBrokerTest.awaitStore(
            standby, StandbyCountApp.STORE, expected, false);
        assertFalse(isStandby(standby), "still a standby after the active instance was killed");
        StrataKeyValueStore promoted = open(stores).store();
        assertFalse(promoted.underRestoreLoad(), "the promoted store is still under the load");
      } finally {
        if (standby != null) {
          standby.close(Duration.ofSeconds(30));
        }
      }
    }
  }

  /**
   * Feeds the standby {@code ROUNDS - 1} rounds of events over many of its commits; checks that
   * its store holds every count and no table.
   */
  private static void checkStandby(String bootstrap, KafkaStreams standby,
      ObservedStores.Observed store, Map<String, Long> expected) throws InterruptedException {
    int commitsBefore = store.commits();
    for (int round = 1; round < ROUNDS; round++) {
      ChangelogRestoreBrokerTest.produce(bootstrap, round * PER_ROUND, PER_ROUND, expected);
      Thread.sleep(300); // a few of the standby's commits per round
    }
    ChangelogRestoreBrokerTest.awaitStore(standby, StandbyCountApp.STORE, expected, true);
    assertTrue(isStandby(standby), "the test's instance was promoted before the kill");
    int commits = store.commits() - commitsBefore;
    assertTrue(commits >= 10, "the standby's store was committed " + commits + " times");
    assertTrue(store.store().underRestoreLoad(), "a standby's store is under the restore's load");
    Db db = store.store().db();
    assertEquals(0, db.stats().tableCount(), "tables of a standby that applied "
        + (ROUNDS - 1) * PER_ROUND + " records over " + commits + " commits: " + db.levelStats());
  }

  /**
   * The one store of the instance that is open (Kafka Streams also makes stores it never opens, or
   * closes, as it builds and moves tasks).
   */
  private static ObservedStores.Observed open(ObservedStores stores) {
    List<ObservedStores.Observed> open =
        stores.made().stream().filter(o -> o.store().isOpen()).toList();
    assertEquals(1, open.size(), "open stores");
    return open.get(0);
  }

  /** Waits until the group committed at least {@code atLeast} events. */
  private static void awaitCommitted(KafkaClusterTestKit cluster, long atLeast, Process child,
      Path output) throws Exception {
    long deadline = System.currentTimeMillis() + WAIT_MS;
    TopicPartition input = new TopicPartition(StandbyCountApp.TOPIC, 0);
    try (Admin admin = cluster.admin()) {
      while (System.currentTimeMillis() < deadline) {
        assertTrue(child.isAlive(), () -> "the active instance died: " + read(output));
        OffsetAndMetadata committed = admin
            .listConsumerGroupOffsets(StandbyCountApp.APPLICATION_ID)
            .partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS).get(input);
        if (committed != null && committed.offset() >= atLeast) {
          return;
        }
        Thread.sleep(50);
      }
    }
    throw new AssertionError("the active instance committed too little: " + read(output));
  }

  private static void awaitStandbyTask(KafkaStreams streams, Process child, Path output)
      throws InterruptedException {
    long deadline = System.currentTimeMillis() + WAIT_MS;
    while (System.currentTimeMillis() < deadline) {
      assertTrue(child.isAlive(), () -> "the active instance died: " + read(output));
      if (streams.state() == KafkaStreams.State.RUNNING && isStandby(streams)) {
        return;
      }
      Thread.sleep(50);
    }
    throw new AssertionError("no standby task: " + streams.metadataForLocalThreads());
  }

  private static boolean isStandby(KafkaStreams streams) {
    boolean standby = false;
    for (ThreadMetadata t : streams.metadataForLocalThreads()) {
      if (!t.activeTasks().isEmpty()) {
        return false;
      }
      standby |= !t.standbyTasks().isEmpty();
    }
    return standby;
  }

  private static String read(Path output) {
    try {
      return Files.readString(output);
    } catch (java.io.IOException e) {
      return "(no output: " + e + ")";
    }
  }
}
