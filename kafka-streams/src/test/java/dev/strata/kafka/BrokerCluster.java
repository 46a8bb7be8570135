package dev.strata.kafka;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;

/**
 * An in-process Kafka cluster for the broker tests: one combined broker and controller, with
 * replication factors of one and consumer sessions allowed to be short, so a killed member leaves
 * its group in seconds.
 *
 * <p>Not thread-safe: a test's fixture.
 */
final class BrokerCluster {
  private BrokerCluster() {}

  /** Starts a cluster under {@code dir} and creates {@code topic} with {@code partitions}. */
  static KafkaClusterTestKit start(Path dir, String topic, int partitions) throws Exception {
    KafkaClusterTestKit cluster = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder()
        .setCombined(true).setNumBrokerNodes(1).setNumControllerNodes(1)
        .setBaseDirectory(dir).build())
        .setConfigProp("offsets.topic.replication.factor", "1")
        .setConfigProp("transaction.state.log.replication.factor", "1")
        .setConfigProp("transaction.state.log.min.isr", "1")
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
