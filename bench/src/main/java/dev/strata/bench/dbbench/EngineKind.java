package dev.strata.bench.dbbench;

import java.util.Arrays;
import java.util.Locale;

/**
 * An engine configuration under test. The two RocksDB configurations differ only in their block
 * cache, so they share one database: it is filled once and read by both.
 *
 * <p>Immutable.
 */
enum EngineKind {
  /** Strata, through {@code dev.strata.engine.Db}. */
  STRATA("strata", "strata"),
  /** RocksDB in the parity setup with an {@code LRUCache}. */
  ROCKSDB_LRU("rocksdb-lru", "rocksdb"),
  /** The same RocksDB setup with a {@code HyperClockCache}. */
  ROCKSDB_HCC("rocksdb-hcc", "rocksdb");

  private final String label;
  private final String storage;

  EngineKind(String label, String storage) {
    this.label = label;
    this.storage = storage;
  }

  /** The name on the command line and in the results. */
  String label() {
    return label;
  }

  /** The name of the database folder this configuration reads and writes (shared by RocksDB's). */
  String storage() {
    return storage;
  }

  boolean isRocksDb() {
    return this != STRATA;
  }

  /** The configuration named {@code label}; IllegalArgumentException listing the names otherwise. */
  static EngineKind parse(String label) {
    for (EngineKind e : values()) {
      if (e.label.equals(label.trim().toLowerCase(Locale.ROOT))) {
        return e;
      }
    }
    throw new IllegalArgumentException("unknown engine '" + label + "'; known: "
        + String.join(",", Arrays.stream(values()).map(EngineKind::label).toList()));
  }
}
