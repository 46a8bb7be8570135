package dev.strata.kafka;

import dev.strata.engine.CompactionOptions;
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
  /**
   * The level-0 table count a store's restore defers compaction to by default (see {@link
   * #keyValueStore(String, DbOptions, int)}).
   */
  public static final int DEFAULT_RESTORE_LEVEL0_TABLES = 64;

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
    return keyValueStore(name, options, DEFAULT_RESTORE_LEVEL0_TABLES);
  }

  /**
   * As {@link #keyValueStore(String, DbOptions)}, restoring under a bulk load ({@link
   * dev.strata.engine.Db#bulkLoad}) of {@code restoreLevel0Tables}: from a store's first restored
   * batch until its first write from processing (or its close), level 0 is compacted only once it
   * holds that many tables. A changelog restores in the order its compacted topic holds the keys,
   * random for most stores, so each flushed table spans every key and each level-0 compaction would
   * rewrite all of level 1. The restored store then compacts what the restore left while it
   * processes. A standby task's store restores until it is promoted: it keeps at most about that
   * many level-0 tables, which its interactive queries consult. 0 restores like any other write
   * (the configured {@code level0CompactionTrigger}); default {@value
   * #DEFAULT_RESTORE_LEVEL0_TABLES}.
   *
   * @throws IllegalArgumentException when {@code restoreLevel0Tables} is negative or above
   *     {@link dev.strata.engine.CompactionOptions#MAX_LEVEL0_COMPACTION_TRIGGER}
   */
  public static KeyValueBytesStoreSupplier keyValueStore(
      String name, DbOptions options, int restoreLevel0Tables) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(options, "options");
    if (restoreLevel0Tables < 0
        || restoreLevel0Tables > CompactionOptions.MAX_LEVEL0_COMPACTION_TRIGGER) {
      throw new IllegalArgumentException(
          "restoreLevel0Tables must be in [0, "
              + CompactionOptions.MAX_LEVEL0_COMPACTION_TRIGGER + "]: " + restoreLevel0Tables);
    }
    return new StrataStoreSupplier(name, options, restoreLevel0Tables);
  }
}
