package dev.strata.sstable.filter;

/**
 * Which filter structure a filter payload holds. From format version 4 every filter payload (chunk
 * or row-tombstone filter) ends with this kind's {@link #id()}, so a table can mix kinds chunk by
 * chunk; a payload of an older table is always {@link #BLOOM}. {@code ordinal()} never reaches disk.
 *
 * <p>Immutable.
 */
public enum FilterKind {
  /** The cache-line-blocked Bloom filter ({@code BlockedBloomFilter}). */
  BLOOM(1),
  /**
   * A Ribbon filter ({@code RibbonFilter}): about 30 % less memory than the blocked Bloom filter at
   * the same rate, several times its build time; for long-lived tables.
   */
  RIBBON(2);

  private final int id;

  FilterKind(int id) {
    this.id = id;
  }

  /** The persisted id (one byte). */
  public int id() {
    return id;
  }

  /** The kind with the given persisted id, or {@code null}: parsers turn that into corruption. */
  public static FilterKind fromIdOrNull(int id) {
    for (FilterKind k : values()) {
      if (k.id == id) {
        return k;
      }
    }
    return null;
  }
}
