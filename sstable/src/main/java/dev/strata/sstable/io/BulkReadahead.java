package dev.strata.sstable.io;

import dev.strata.sstable.format.CorruptTableException;
import java.io.IOException;

/**
 * The read-ahead of one bulk pass over a table ({@link dev.strata.sstable.TableReader#bulkIterator}, RocksDB's {@code
 * compaction_readahead_size}): a data block outside the window refills it with the {@code
 * windowBytes} of the file that start at the block, in one read, and the blocks that follow are
 * copied out of it. A compaction reads its inputs' data blocks in file order, so a 2 MiB window
 * turns about 500 reads of 4 KiB blocks into one. With buffered reads the kernel reads ahead for a
 * sequential pass anyway, and the window saves read calls; with direct reads nothing reads ahead
 * but the window, and without it each block would be a read of the two or three 4 KiB file-system
 * blocks around it (adjacent blocks share one), about twice the table's bytes from the device.
 *
 * <p>A block larger than half the window is read on its own, past the window; so is a read that
 * runs past the end of the file (its failure is the file's to report). A window of 0 bytes reads
 * every block on its own. The window is allocated at the first refill, no larger than the file.
 *
 * <p>Not thread-safe: one per bulk cursor.
 */
public final class BulkReadahead {
  private static final byte[] EMPTY = new byte[0];

  private final TableFile file;
  private final long fileSize;
  private final int windowBytes;
  private byte[] window = EMPTY;
  /** File offset of {@code window[0]}. */
  private long windowStart;
  /** Bytes of the window that hold file data; 0 before the first refill and after a failed one. */
  private int windowLength;
  /** Read calls made on the file, for tests and measurements. */
  private long fileReads;

  public BulkReadahead(TableFile file, long fileSize, int windowBytes) {
    if (windowBytes < 0) {
      throw new IllegalArgumentException("read-ahead window must not be negative: " + windowBytes);
    }
    this.file = file;
    this.fileSize = fileSize;
    this.windowBytes = windowBytes;
  }

  /**
   * Reads exactly {@code length} bytes at {@code position} into the start of {@code into}.
   *
   * @throws CorruptTableException when the file ends first
   */
  public void readFully(long position, byte[] into, int length) throws IOException {
    long offset = position - windowStart;
    if (offset >= 0 && offset + length <= windowLength) {
      System.arraycopy(window, (int) offset, into, 0, length);
      return;
    }
    int fill = (int) Math.min(windowBytes, fileSize - position);
    if (length > windowBytes / 2 || fill < length) {
      fileReads++;
      file.readFully(position, into, length);
      return;
    }
    if (window.length < fill) {
      window = new byte[fill];
    }
    windowLength = 0; // a failed refill leaves no stale window behind
    fileReads++;
    file.readFully(position, window, fill);
    windowStart = position;
    windowLength = fill;
    System.arraycopy(window, 0, into, 0, length);
  }

  /** Read calls made on the file so far. */
  long fileReads() {
    return fileReads;
  }
}
