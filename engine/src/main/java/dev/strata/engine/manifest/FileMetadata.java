package dev.strata.engine.manifest;

import dev.strata.sstable.filter.FilterKind;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.UnsignedBytes;
import java.util.Objects;

/**
 * What the manifest records about one live table: where it is, which level holds it, and the key
 * and sequence ranges that let a read or a compaction rule it out without opening it.
 *
 * <p>Immutable.
 *
 * @param fileNumber the table's number ({@code NNNNNN.sst})
 * @param level the level that holds it, 0 to {@link ManifestFormat#NUM_LEVELS} - 1
 * @param fileSize the file's length in bytes
 * @param entryCount the internal keys it holds, tombstones included
 * @param smallestSequence the smallest sequence number of its entries
 * @param largestSequence the largest sequence number of its entries
 * @param smallest its first internal key
 * @param largest its last internal key
 * @param filterBytes the bytes of filter in the file (0 without a filter), so that statistics need
 *     not open the table; {@link #UNKNOWN_FILTER_BYTES} when read from a version-1 manifest
 * @param filterKind the structure of the table's filter; null without a filter, or when the
 *     manifest did not record it (versions 1 and 2: such tables hold blocked Bloom filters)
 * @param filterBitsPerKey the bits per filter key the table's filter was built with; 0 when {@code
 *     filterKind} is null
 */
public record FileMetadata(
    long fileNumber,
    int level,
    long fileSize,
    long entryCount,
    long smallestSequence,
    long largestSequence,
    InternalKey smallest,
    InternalKey largest,
    long filterBytes,
    FilterKind filterKind,
    double filterBitsPerKey) {

  /** {@link #filterBytes()} of a table listed by a version-1 manifest, which did not record it. */
  public static final long UNKNOWN_FILTER_BYTES = -1;

  public FileMetadata {
    Objects.requireNonNull(smallest, "smallest");
    Objects.requireNonNull(largest, "largest");
  }

  /** An entry whose filter's structure and bits per key are not recorded. */
  public FileMetadata(long fileNumber, int level, long fileSize, long entryCount,
      long smallestSequence, long largestSequence, InternalKey smallest, InternalKey largest,
      long filterBytes) {
    this(fileNumber, level, fileSize, entryCount, smallestSequence, largestSequence, smallest,
        largest, filterBytes, null, 0);
  }

  /** The same entry with its filter size, once learned from the table. */
  public FileMetadata withFilterBytes(long bytes) {
    return with(level, bytes);
  }

  /** The same table at another level (a trivial move by compaction). */
  public FileMetadata atLevel(int newLevel) {
    return with(newLevel, filterBytes);
  }

  private FileMetadata with(int newLevel, long newFilterBytes) {
    return new FileMetadata(
        fileNumber,
        newLevel,
        fileSize,
        entryCount,
        smallestSequence,
        largestSequence,
        smallest,
        largest,
        newFilterBytes,
        filterKind,
        filterBitsPerKey);
  }

  /** True when {@code row} lies between the table's smallest and largest row, unsigned. */
  public boolean coversRow(byte[] row) {
    return UnsignedBytes.compare(smallest.row(), row) <= 0
        && UnsignedBytes.compare(row, largest.row()) <= 0;
  }
}
