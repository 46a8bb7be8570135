package dev.strata.kafka;

import dev.strata.engine.DbOptions;
import java.util.Objects;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;

/**
 * Kafka Streams key-value state stores backed by Strata: a drop-in for {@code
 * Stores.persistentKeyValueStore(name)}.
 *
 * <pre>{@code
 * builder.stream("words", Consumed.with(Serdes.String(), Serdes.String()))
 *     .groupBy((k, word) -> word)
 *     .count(Materialized.as(StrataStores.keyValueStore("counts")));
 * }</pre>
 *
 * <p>Each store instance (one per task and store name) is a {@link dev.strata.engine.Db} in the
 * task's state directory, {@code <state.dir>/<application>/<task>/strata/<name>}; see {@link
 * StrataKeyValueStore} for what it guarantees.
 *
 * <p>Immutable (static methods only).
 */
public final class StrataStores {
  private StrataStores() {}

  /** A persistent key-value store named {@code name} with Strata's default options. */
  public static KeyValueBytesStoreSupplier keyValueStore(String name) {
    return keyValueStore(name, DbOptions.defaults());
  }

  /**
   * A persistent key-value store named {@code name} whose databases are opened with {@code
   * options} (each task's store has a block cache and memtables of its own: size them for the
   * number of tasks an instance runs).
   */
  public static KeyValueBytesStoreSupplier keyValueStore(String name, DbOptions options) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(options, "options");
    return new StrataStoreSupplier(name, options);
  }
}
