package dev.strata.bench.dbbench;

import java.util.Locale;

/**
 * The workloads of {@code dbbench}, named as in RocksDB's db_bench. A fill writes {@code --num}
 * keys into a fresh database; overwrite writes {@code --writes} random keys again (readers beside
 * it in readwhileoverwriting); the reads run for {@code --duration} seconds on {@code --threads}
 * threads after a warm-up of the same operation. Random keys follow {@code --key-distribution}.
 *
 * <p>Immutable.
 */
enum Benchmark {
  /** {@code --num} keys in ascending order into a fresh database. */
  FILLSEQ(Kind.FILL, Layout.NARROW),
  /** {@code --num} keys in a random order (each key once) into a fresh database. */
  FILLRANDOM(Kind.FILL, Layout.NARROW),
  /** {@code --writes} puts of keys drawn at random (with repeats) from the filled ones. */
  OVERWRITE(Kind.WRITE, Layout.NARROW),
  /**
   * Overwrite's {@code --writes} puts on one writer while {@code --threads} readers Get random
   * present keys until the last put: YCSB's updates of a leveled tree under reads, as a fixed
   * amount of writing, so every engine's tree has taken the same updates when the phases after
   * it read it. Measured by the writer (its puts, as overwrite) and by the readers (columns of
   * their own).
   */
  READWHILEOVERWRITING(Kind.WRITE, Layout.NARROW),
  /** Gets of keys drawn at random from the filled ones: every Get finds its key. */
  READRANDOM(Kind.READ, Layout.NARROW),
  /** Gets of keys that are certainly absent but fall among the filled ones. */
  READMISSING(Kind.READ, Layout.NARROW),
  /**
   * Batches of {@code --batch-size} random present keys, each read by one batched call (Strata's
   * {@code multiGet}, RocksDB's {@code MultiGet}); ops count keys, latency is per batch.
   */
  MULTIREADRANDOM(Kind.READ, Layout.NARROW),
  /** Random Gets on N reader threads while one writer overwrites random keys as fast as it can. */
  READWHILEWRITING(Kind.READ, Layout.NARROW),
  /** A seek to a random filled key, then the next cells after it (10 in all, as db_bench). */
  SEEKRANDOM(Kind.READ, Layout.NARROW),
  /**
   * db_bench's seekrandom with {@code --reverse_iterator}: a seek for the last cell at or before a
   * random filled key, then the cells before it, moving backward (10 in all).
   */
  SEEKRANDOMREVERSE(Kind.READ, Layout.NARROW),
  /**
   * The cells of the keys starting with the first bytes of a random filled key, as many bytes as
   * leave about 1 to 16 keys per prefix: a prefix scan (Strata's scanPrefix; RocksDB an iterator
   * from the prefix while keys start with it).
   */
  PREFIXSCANRANDOM(Kind.READ, Layout.NARROW),
  /** Reads every column of a random wide row (its own database, filled by {@link #FILLROWS}). */
  GETROWRANDOM(Kind.READ, Layout.WIDE),
  /** The wide-row database {@link #GETROWRANDOM} reads: {@code --num} cells in random row order. */
  FILLROWS(Kind.FILL, Layout.WIDE);

  /** What a benchmark does to its database. */
  enum Kind {
    /** Creates the database from nothing. */
    FILL,
    /** Changes an existing database. */
    WRITE,
    /** Reads an existing database (readwhilewriting also writes, but is measured by its reads). */
    READ
  }

  /** Which database a benchmark works on. */
  enum Layout {
    /** Key-value: {@code --num} 16-byte keys. */
    NARROW,
    /** Wide rows of {@code --columns} columns each. */
    WIDE
  }

  private final Kind kind;
  private final Layout layout;

  Benchmark(Kind kind, Layout layout) {
    this.kind = kind;
    this.layout = layout;
  }

  Kind kind() {
    return kind;
  }

  Layout layout() {
    return layout;
  }

  /** Whether the benchmark runs once per {@code --threads} value and cache state. */
  boolean isRead() {
    return kind == Kind.READ;
  }

  /** Whether a write phase has reader threads beside its writer, one phase per thread count. */
  boolean writesUnderReads() {
    return this == READWHILEOVERWRITING;
  }

  /** Whether it changes the database, so it runs once per database, not once per RocksDB cache. */
  boolean writesOnce() {
    return kind != Kind.READ;
  }

  /** The name on the command line and in the results: db_bench's. */
  String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The benchmark named {@code label}; IllegalArgumentException listing the names otherwise. */
  static Benchmark parse(String label) {
    for (Benchmark b : values()) {
      if (b.label().equals(label.trim().toLowerCase(Locale.ROOT))) {
        return b;
      }
    }
    throw new IllegalArgumentException("unknown benchmark '" + label + "'; known: "
        + String.join(",", java.util.Arrays.stream(values()).map(Benchmark::label).toList()));
  }
}
