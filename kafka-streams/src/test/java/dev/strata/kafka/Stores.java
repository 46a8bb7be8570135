package dev.strata.kafka;

import dev.strata.engine.DbOptions;
import dev.strata.kafka.bench.CapturingContext;
import java.nio.file.Path;
import java.util.Properties;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.internals.RecordBatchingStateRestoreCallback;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueStore;

/** Opens Strata stores outside a topology, on Kafka's mock context, for the store-level tests. */
final class Stores {
  private Stores() {}

  /** Small memtables and cache, so flushes and tables happen within a test. */
  static final DbOptions SMALL = DbOptions.builder().memtableBytes(64 << 10)
      .blockCacheBytes(256 << 10).build();

  /** A store and the restore callback it registered when it opened. */
  record Restoring(KeyValueStore<Bytes, byte[]> store, RecordBatchingStateRestoreCallback restore) {}

  /**
   * A store named {@code name} opened in the state directory {@code stateDir}, with the restore
   * callback it registered, as Kafka Streams' changelog reader would call it.
   */
  static Restoring openRestoring(Path stateDir, String name, String guarantee) {
    return openRestoring(stateDir, StrataStores.keyValueStore(name, SMALL), guarantee);
  }

  /** As above, the store made by {@code supplier}. */
  static Restoring openRestoring(
      Path stateDir, KeyValueBytesStoreSupplier supplier, String guarantee) {
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, "strata-test");
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9");
    p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, guarantee);
    MockProcessorContext<Object, Object> mock =
        new MockProcessorContext<>(p, new TaskId(0, 0), stateDir.toFile());
    CapturingContext context = new CapturingContext(mock.getStateStoreContext());
    KeyValueStore<Bytes, byte[]> store = supplier.get();
    store.init(context, store);
    return new Restoring(store, (RecordBatchingStateRestoreCallback) context.callback());
  }

  /** A store named {@code name} opened in the state directory {@code stateDir}. */
  static KeyValueStore<Bytes, byte[]> open(Path stateDir, String name, String guarantee) {
    return openRestoring(stateDir, name, guarantee).store();
  }

  static KeyValueStore<Bytes, byte[]> open(Path stateDir, String name) {
    return open(stateDir, name, StreamsConfig.AT_LEAST_ONCE);
  }
}
