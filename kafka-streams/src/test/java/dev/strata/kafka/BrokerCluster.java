package dev.strata.kafka;

import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.apache.kafka.streams.StreamsConfig;

/**
 * An in-process Kafka cluster for the broker tests: one combined broker and controller, with
 * replication factors of one and consumer sessions allowed to be short, so a killed member leaves
 * its group in seconds.
 *
 * <p>Not thread-safe: a test's fixture.
 */
final class BrokerCluster {
  private BrokerCluster() {}

  /**
   * The settings of an application under test on a cluster at {@code bootstrap}: at-least-once,
   * a commit every 100 ms, Kafka's record cache off (every write reaches the store), and short
   * consumer sessions, so a killed member leaves the group in seconds.
   */
  static Properties streamsConfig(String applicationId, String bootstrap, Path stateDir) {
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
    p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
    p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
    p.put("consumer.session.timeout.ms", 2_000);
    p.put("consumer.heartbeat.interval.ms", 500);
    return p;
  }

  /** Starts a cluster under {@code dir} and creates {@code topic} with {@code partitions}. */
  static KafkaClusterTestKit start(Path dir, String topic, int partitions) throws Exception {
    KafkaClusterTestKit cluster = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder()
        .setCombined(true).setNumBrokerNodes(1).setNumControllerNodes(1)
        .setBaseDirectory(dir).build())
        .setConfigProp("offsets.topic.replication.factor", "1")
        .setConfigProp("transaction.state.log.replication.factor", "1")
        .setConfigProp("transaction.state.log.min.isr", "1")
        // A killed member's open transaction is aborted soon after it times out, not 10 s later.
        .setConfigProp("transaction.abort.timed.out.transaction.cleanup.interval.ms", "500")
        .setConfigProp("group.initial.rebalance.delay.ms", "0")
        .setConfigProp("group.min.session.timeout.ms", "1000")
        .build();
    boolean started = false;
    try {
      cluster.format();
      cluster.startup();
      cluster.waitForReadyBrokers();
      try (Admin admin = cluster.admin()) {
        admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all()
            .get(60, TimeUnit.SECONDS);
      }
      started = true;
      return cluster;
    } finally {
      if (!started) {
        cluster.close();
      }
    }
  }
}
