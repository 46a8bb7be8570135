package dev.strata.bloom;

import dev.strata.checksum.Checksums;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The checks a persisted filter's trailer gets before any other field is trusted, in the order
 * every filter format makes them: the magic (is this a filter of this kind at all), the checksum
 * over every byte before it, then the version range. Each format gives its own offsets.
 *
 * <p>Immutable (static methods only); thread-safe.
 */
final class FilterTrailer {
  /**
   * Where one format keeps the checked fields, relative to its trailer's start, and the name its
   * messages use.
   */
  record Layout(
      String name,
      int trailerBytes,
      int magic,
      int magicOffset,
      int crcOffset,
      int versionOffset,
      int versionStart,
      int versionCurrent) {}

  private FilterTrailer() {}

  /**
   * {@code bytes[offset, offset + length)} as a little-endian buffer indexed from 0, once its magic,
   * checksum and version have checked; the caller has checked that {@code length} holds a trailer.
   * The buffer wraps {@code bytes}: the checksum reads the array itself.
   *
   * @throws IllegalArgumentException naming the field that does not check
   */
  static ByteBuffer verify(byte[] bytes, int offset, int length, Layout layout) {
    ByteBuffer buf = ByteBuffer.wrap(bytes, offset, length).slice().order(ByteOrder.LITTLE_ENDIAN);
    return verify(buf, layout);
  }

  /**
   * {@link #verify(byte[], int, int, Layout)} of {@code bytes[0, capacity)} (heap or direct, read
   * where it lies): a little-endian view of those bytes once they check.
   *
   * @throws IllegalArgumentException naming the field that does not check
   */
  static ByteBuffer verify(ByteBuffer bytes, Layout layout) {
    ByteBuffer buf = bytes.slice(0, bytes.capacity()).order(ByteOrder.LITTLE_ENDIAN);
    int length = buf.capacity();
    int trailer = length - layout.trailerBytes();
    int magic = buf.getInt(trailer + layout.magicOffset());
    if (magic != layout.magic()) {
      throw new IllegalArgumentException(
          String.format("bad %s magic: %08x", layout.name(), magic));
    }
    int storedCrc = buf.getInt(trailer + layout.crcOffset());
    int computedCrc = Checksums.maskedCrc32c(buf.slice(0, trailer + layout.crcOffset()));
    if (storedCrc != computedCrc) {
      throw new IllegalArgumentException(
          String.format(
              "%s crc mismatch: stored=%08x computed=%08x", layout.name(), storedCrc, computedCrc));
    }
    int version = Short.toUnsignedInt(buf.getShort(trailer + layout.versionOffset()));
    if (version < layout.versionStart() || version > layout.versionCurrent()) {
      throw new IllegalArgumentException(
          "unsupported " + layout.name() + " version " + version + " (this reader accepts "
              + layout.versionStart() + ".." + layout.versionCurrent() + ")");
    }
    return buf;
  }
}
