package dev.strata.sstable.block;

import dev.strata.sstable.format.Bytes;
import dev.strata.sstable.format.SstableFormat;
import java.util.Arrays;

/**
 * Builds the payload of a data, index or filter-index block: shared-prefix encoded entries with a
 * restart point (an entry that stores its whole key) every {@code restartInterval} entries, then
 * the restart offsets and their count. See {@link SstableFormat}.
 *
 * <p>Not thread-safe.
 */
public final class BlockBuilder {
  private final int restartInterval;
  private byte[] buf = new byte[256];
  private int size;
  private int[] restarts = new int[16];
  private int restartCount;
  private int sinceRestart;
  private byte[] lastKey = new byte[64];
  private int lastKeyLength;
  private int entryCount;

  public BlockBuilder(int restartInterval) {
    assert restartInterval >= 1;
    this.restartInterval = restartInterval;
  }

  /** Whether the next {@link #add} starts a restart point (stores its whole key). */
  public boolean nextAddIsRestart() {
    return sinceRestart == restartInterval || entryCount == 0;
  }

  /** Appends an entry; keys must come in the block's order (the table writer checks it). */
  public void add(byte[] key, int keyLength, byte[] value, int valueOffset, int valueLength) {
    int shared = 0;
    if (nextAddIsRestart()) {
      if (restartCount == restarts.length) {
        restarts = Arrays.copyOf(restarts, restartCount * 2);
      }
      restarts[restartCount++] = size;
      sinceRestart = 0;
    } else {
      int max = Math.min(keyLength, lastKeyLength);
      shared = Arrays.mismatch(key, 0, max, lastKey, 0, max);
      if (shared < 0) {
        shared = max;
      }
    }
    int unshared = keyLength - shared;
    ensure(size + 3 * Bytes.MAX_VARINT32_BYTES + unshared + valueLength);
    size = Bytes.putVarint32(buf, size, shared);
    size = Bytes.putVarint32(buf, size, unshared);
    size = Bytes.putVarint32(buf, size, valueLength);
    System.arraycopy(key, shared, buf, size, unshared);
    size += unshared;
    System.arraycopy(value, valueOffset, buf, size, valueLength);
    size += valueLength;
    if (lastKey.length < keyLength) {
      lastKey = new byte[Math.max(keyLength, lastKey.length * 2)];
    }
    System.arraycopy(key, 0, lastKey, 0, keyLength);
    lastKeyLength = keyLength;
    sinceRestart++;
    entryCount++;
  }

  /** Bytes the finished payload will take. */
  public int estimatedSize() {
    return size + 4 * restartCount + 4;
  }

  public boolean isEmpty() {
    return entryCount == 0;
  }

  int entryCount() {
    return entryCount;
  }

  /** The key of the last entry added (valid until the next {@code add} or {@code reset}). */
  public byte[] lastKey() {
    return lastKey;
  }

  public int lastKeyLength() {
    return lastKeyLength;
  }

  /**
   * Appends the restart array and returns the buffer holding the payload in its first {@link
   * #estimatedSize()} bytes; valid until the next {@code add} or {@code reset}.
   */
  public byte[] finish() {
    ensure(estimatedSize());
    for (int i = 0; i < restartCount; i++) {
      Bytes.putU32(buf, size + 4 * i, restarts[i]);
    }
    Bytes.putU32(buf, size + 4 * restartCount, restartCount);
    return buf;
  }

  /** Empties the builder for the next block. */
  public void reset() {
    size = 0;
    restartCount = 0;
    sinceRestart = 0;
    lastKeyLength = 0;
    entryCount = 0;
  }

  private void ensure(int capacity) {
    if (buf.length < capacity) {
      buf = Arrays.copyOf(buf, Math.max(capacity, buf.length * 2));
    }
  }
}
