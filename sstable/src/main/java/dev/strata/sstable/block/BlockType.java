package dev.strata.sstable.block;

/**
 * What a block holds. Persisted by {@link #id()} in the high four bits of every block trailer's type
 * byte, so a handle that points at the wrong block is caught as corruption; {@code ordinal()} never
 * reaches disk.
 *
 * <p>Immutable.
 */
public enum BlockType {
  /** Sorted cells. */
  DATA(1),
  /**
   * The index: before version 3 the last key and handle of each data block; in versions 3 and 4 the
   * top level, the last key and handle of each {@link #INDEX_PARTITION}.
   */
  INDEX(2),
  /** One partition of the filter: a serialized {@code BlockedBloomFilter}. */
  FILTER_CHUNK(3),
  /** The last filter key and handle of each filter chunk. */
  FILTER_INDEX(4),
  /** The table's properties. */
  PROPERTIES(5),
  /** A {@code BlockedBloomFilter} over the rows holding a row tombstone ({@code ROWCOL} only). */
  ROW_TOMBSTONE_FILTER(6),
  /** One partition of a two-level index (versions 3, 4): a separator key and handle per data block. */
  INDEX_PARTITION(7),
  /**
   * The top level of a version-5 index: {@link #INDEX}'s entries in the compact encoding of {@link
   * CompactIndex} (a key form flag, a handle with a varint length).
   */
  COMPACT_INDEX(8),
  /**
   * One partition of a version-5 index: prefix-shared separators at a restart interval, keys without
   * their trailer where the blocks allow it, handles delta-encoded ({@link CompactIndex}).
   */
  COMPACT_INDEX_PARTITION(9);

  /** {@code values()} copies its array on every call; every block read looks a type up. */
  private static final BlockType[] ALL = values();

  private final int id;

  BlockType(int id) {
    this.id = id;
  }

  /** Whether blocks of this type hold index entries (one level, a top level or a partition). */
  public boolean isIndex() {
    return this == INDEX || this == INDEX_PARTITION || isCompactIndex();
  }

  /** Whether blocks of this type hold index entries in the compact encoding of version 5. */
  public boolean isCompactIndex() {
    return this == COMPACT_INDEX || this == COMPACT_INDEX_PARTITION;
  }

  /** The persisted id (four bits). */
  int id() {
    return id;
  }

  /** The type with the given persisted id, or {@code null}: parsers turn that into corruption. */
  public static BlockType fromIdOrNull(int id) {
    for (BlockType t : ALL) {
      if (t.id == id) {
        return t;
      }
    }
    return null;
  }

  /**
   * The trailer type byte of a block: the type's id in the high four bits, the compression's in the
   * low four (see {@link dev.strata.sstable.format.SstableFormat}).
   */
  public static byte trailerType(BlockType type, BlockCompression compression) {
    return (byte) (type.id() << 4 | compression.id());
  }
}
