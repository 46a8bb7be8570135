package dev.strata.sstable;

import static dev.strata.sstable.format.SstableFormat.FOOTER_BYTES;
import static dev.strata.sstable.format.SstableFormat.FOOTER_CRC_OFFSET;
import static dev.strata.sstable.format.SstableFormat.FOOTER_MAGIC_OFFSET;
import static dev.strata.sstable.format.SstableFormat.FOOTER_VERSION_OFFSET;
import static dev.strata.sstable.format.SstableFormat.HANDLE_BYTES;

import dev.strata.checksum.Checksums;
import dev.strata.sstable.block.BlockHandle;
import dev.strata.sstable.format.Bytes;
import dev.strata.sstable.format.CorruptTableException;
import dev.strata.sstable.format.FormatVersionException;
import dev.strata.sstable.format.SstableFormat;
import java.nio.file.Path;

/**
 * The fixed-size footer at the end of every table: the handles of the index, filter index,
 * properties and row-tombstone filter blocks, the format version, a masked CRC32C and the magic.
 *
 * <p>Immutable.
 */
record Footer(
    BlockHandle index,
    BlockHandle filterIndex,
    BlockHandle properties,
    BlockHandle rowTombstoneFilter,
    int version) {

  /** The footer's 64 bytes. */
  byte[] encode() {
    byte[] b = new byte[FOOTER_BYTES];
    index.encodeTo(b, 0);
    filterIndex.encodeTo(b, HANDLE_BYTES);
    properties.encodeTo(b, 2 * HANDLE_BYTES);
    rowTombstoneFilter.encodeTo(b, 3 * HANDLE_BYTES);
    Bytes.putU32(b, FOOTER_VERSION_OFFSET, version);
    Bytes.putU32(b, FOOTER_CRC_OFFSET, Checksums.maskedCrc32c(b, 0, FOOTER_CRC_OFFSET));
    SstableFormat.putMagic(b, FOOTER_MAGIC_OFFSET);
    return b;
  }

  /**
   * Decodes the footer {@code b} read at {@code offset} (= file size - 64) of {@code file}: magic, then
   * checksum, then version range, then handles that lie before the footer.
   */
  static Footer decode(byte[] b, Path file, long offset) throws CorruptTableException, FormatVersionException {
    assert b.length == FOOTER_BYTES;
    if (!SstableFormat.hasMagic(b, FOOTER_MAGIC_OFFSET)) {
      throw new CorruptTableException(file, offset + FOOTER_MAGIC_OFFSET, "bad magic: not a table file or truncated");
    }
    int stored = Bytes.getU32(b, FOOTER_CRC_OFFSET);
    int computed = Checksums.maskedCrc32c(b, 0, FOOTER_CRC_OFFSET);
    if (stored != computed) {
      throw new CorruptTableException(file, offset, "footer crc mismatch: stored=%08x computed=%08x", stored, computed);
    }
    int version = Bytes.getU32(b, FOOTER_VERSION_OFFSET);
    if (version < SstableFormat.VERSION_START || version > SstableFormat.VERSION_CURRENT) {
      throw new FormatVersionException(file, version, SstableFormat.VERSION_START, SstableFormat.VERSION_CURRENT);
    }
    BlockHandle[] h = new BlockHandle[4];
    for (int i = 0; i < 4; i++) {
      h[i] = BlockHandle.decodeOrNull(b, i * HANDLE_BYTES, offset);
      if (h[i] == null) {
        throw new CorruptTableException(file, offset + i * HANDLE_BYTES, "footer handle %d lies outside the file", i);
      }
    }
    return new Footer(h[0], h[1], h[2], h[3], version);
  }
}
