package dev.strata.bench.readamp;

/**
 * One engine configuration of the benchmark: an engine and what filter its tables carry. Strata's
 * three bloom types face RocksDB without a filter, with a whole-table ("full") filter, and with
 * partitioned filters behind a two-level index.
 *
 * <p>Immutable.
 */
enum Setup {
  STRATA_NONE(Engine.STRATA, "NONE"),
  STRATA_ROW(Engine.STRATA, "ROW"),
  STRATA_ROWCOL(Engine.STRATA, "ROWCOL"),
  ROCKSDB_NONE(Engine.ROCKSDB, "NONE"),
  ROCKSDB_BLOOM(Engine.ROCKSDB, "BLOOM"),
  ROCKSDB_BLOOM_PARTITIONED(Engine.ROCKSDB, "BLOOM_PARTITIONED");

  /** The two engines. */
  enum Engine {
    STRATA,
    ROCKSDB;

    String label() {
      return this == STRATA ? "strata" : "rocksdb";
    }
  }

  private final Engine engine;
  private final String bloom;

  Setup(Engine engine, String bloom) {
    this.engine = engine;
    this.bloom = bloom;
  }

  Engine engine() {
    return engine;
  }

  /** The {@code bloom} column of the CSV. */
  String bloom() {
    return bloom;
  }

  boolean hasFilter() {
    return !bloom.equals("NONE");
  }

  /** {@code strata/ROW}-style name for tables and plots. */
  String label() {
    return engine.label() + "/" + bloom;
  }

  /**
   * The RocksDB configuration a Strata setup's throughput is divided by for {@code
   * ratio_to_rocksdb}: no filter against no filter; both Strata filters against RocksDB's
   * partitioned filter, the layout Strata's chunked filter resembles. Null for RocksDB setups.
   */
  Setup rocksDbCounterpart() {
    return switch (this) {
      case STRATA_NONE -> ROCKSDB_NONE;
      case STRATA_ROW, STRATA_ROWCOL -> ROCKSDB_BLOOM_PARTITIONED;
      default -> null;
    };
  }
}
