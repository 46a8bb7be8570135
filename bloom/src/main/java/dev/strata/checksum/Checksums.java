package dev.strata.checksum;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * The one place every Strata format computes its checksums: CRC32C (Castagnoli, hardware-accelerated
 * by the JDK's {@link CRC32C}), stored masked.
 *
 * <p>Why masked: a CRC computed over bytes that themselves contain CRCs (a block holding another
 * block's trailer, a log record holding a table footer) is weak, so every stored CRC is rotated and
 * offset first, as LevelDB and RocksDB do: {@code mask(c) = ((c >>> 15) | (c << 17)) + 0xa282ead8}.
 * Readers compare masked values, so {@link #unmask} exists only for tools that print raw CRCs.
 *
 * <p>Thread-safe: stateless but for each thread's own checksum state.
 */
public final class Checksums {
  /** Added after the rotation; the constant LevelDB uses, so the values are familiar in hex dumps. */
  private static final int MASK_DELTA = 0xa282ead8;

  /**
   * Each thread's checksum state for the array forms, reset before each use: a block read (a Get's
   * cache miss) then makes no object for its checksum, whether or not the compiler would have
   * removed one.
   */
  private static final ThreadLocal<CRC32C> CRC = ThreadLocal.withInitial(CRC32C::new);

  private Checksums() {}

  private static CRC32C reset() {
    CRC32C crc = CRC.get();
    crc.reset();
    return crc;
  }

  /** The masked CRC32C of {@code bytes[offset, offset + length)}. */
  public static int maskedCrc32c(byte[] bytes, int offset, int length) {
    CRC32C crc = reset();
    crc.update(bytes, offset, length);
    return mask((int) crc.getValue());
  }

  /** The masked CRC32C of the buffer's remaining bytes; the buffer's position is not moved. */
  public static int maskedCrc32c(ByteBuffer buffer) {
    CRC32C crc = new CRC32C();
    crc.update(buffer.duplicate());
    return mask((int) crc.getValue());
  }

  /**
   * The masked CRC32C of {@code bytes[offset, offset + length)} followed by one more byte, for block
   * trailers whose checksum covers the payload and the type byte after it.
   */
  public static int maskedCrc32c(byte[] bytes, int offset, int length, byte trailing) {
    CRC32C crc = reset();
    crc.update(bytes, offset, length);
    crc.update(trailing);
    return mask((int) crc.getValue());
  }

  /**
   * {@link #maskedCrc32c(byte[], int, int, byte)} of the bytes from {@code buffer}'s position to its
   * limit, heap or direct (read where they lie), then {@code trailing}; the buffer is not moved.
   */
  public static int maskedCrc32c(ByteBuffer buffer, byte trailing) {
    CRC32C crc = new CRC32C();
    crc.update(buffer.duplicate());
    crc.update(trailing);
    return mask((int) crc.getValue());
  }

  /** Rotates and offsets a raw CRC for storage. */
  public static int mask(int crc) {
    return ((crc >>> 15) | (crc << 17)) + MASK_DELTA;
  }

  /** Inverse of {@link #mask}. */
  public static int unmask(int masked) {
    int rotated = masked - MASK_DELTA;
    return (rotated >>> 17) | (rotated << 15);
  }
}
