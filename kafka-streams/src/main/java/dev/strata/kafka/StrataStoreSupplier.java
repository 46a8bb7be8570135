package dev.strata.kafka;

import dev.strata.engine.DbOptions;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Makes a new {@link StrataKeyValueStore} for each task that asks.
 *
 * <p>Immutable.
 */
final class StrataStoreSupplier implements KeyValueBytesStoreSupplier {
  private final String name;
  private final DbOptions options;
  private final int restoreLevel0Tables;

  StrataStoreSupplier(String name, DbOptions options, int restoreLevel0Tables) {
    this.name = name;
    this.options = options;
    this.restoreLevel0Tables = restoreLevel0Tables;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public KeyValueStore<Bytes, byte[]> get() {
    return new StrataKeyValueStore(name, options, restoreLevel0Tables);
  }

  @Override
  public String metricsScope() {
    return "strata";
  }
}
