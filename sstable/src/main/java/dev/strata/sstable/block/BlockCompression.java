package dev.strata.sstable.block;

/**
 * How a block's payload is stored. Persisted by {@link #id()} in the low four bits of every block
 * trailer's type byte and in the properties block; {@code ordinal()} never reaches disk.
 *
 * <p>Immutable.
 */
public enum BlockCompression {
  /** Stored as is. */
  NONE(0),
  /**
   * An LZ4 block (lz4-java, the LZ4 block format, no frame) after a u32 uncompressed length; written
   * for a data block only when it saves at least an eighth of the block.
   */
  LZ4(1);

  /** {@code values()} copies its array on every call; every block read looks a type up. */
  private static final BlockCompression[] ALL = values();

  private final int id;

  BlockCompression(int id) {
    this.id = id;
  }

  /** The persisted id (four bits). */
  public int id() {
    return id;
  }

  /** The compression with the given persisted id, or {@code null}: parsers turn that into corruption. */
  public static BlockCompression fromIdOrNull(int id) {
    for (BlockCompression c : ALL) {
      if (c.id == id) {
        return c;
      }
    }
    return null;
  }
}
