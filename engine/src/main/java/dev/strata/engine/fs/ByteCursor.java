package dev.strata.engine.fs;

import dev.strata.engine.CorruptionException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Reads little-endian fields from bytes that came from a file, turning every overrun into a {@link
 * CorruptionException} that names the file and the absolute offset of the field, so that parsing
 * damaged bytes can never fail with an index exception or return garbage.
 *
 * <p>Not thread-safe.
 */
public final class ByteCursor {

  /** The one array returned for zero-length fields. */
  private static final byte[] EMPTY = new byte[0];

  private final byte[] bytes;
  private final int end;
  private final Path file;
  private final long base;
  private final String what;
  private int pos;

  /**
   * A cursor over {@code bytes[from, to)}, which were read from {@code file} at offset {@code base
   * + from}; {@code what} prefixes error messages (for example "manifest").
   */
  public ByteCursor(byte[] bytes, int from, int to, Path file, long base, String what) {
    if (from < 0 || from > to || to > bytes.length) {
      throw new IndexOutOfBoundsException("[" + from + ", " + to + ") of " + bytes.length);
    }
    this.bytes = bytes;
    this.pos = from;
    this.end = to;
    this.file = file;
    this.base = base - from;
    this.what = what;
  }

  /** Bytes left before the end. */
  public int remaining() {
    return end - pos;
  }

  /** The absolute file offset of the next field. */
  public long offset() {
    return base + pos;
  }

  /** Reads an unsigned byte. */
  public int u8(String field) throws CorruptionException {
    need(1, field);
    return bytes[pos++] & 0xFF;
  }

  /** Reads an unsigned 16-bit integer. */
  public int u16(String field) throws CorruptionException {
    need(2, field);
    int v = (bytes[pos] & 0xFF) | ((bytes[pos + 1] & 0xFF) << 8);
    pos += 2;
    return v;
  }

  /** Reads an unsigned 32-bit integer. */
  public long u32(String field) throws CorruptionException {
    return i32(field) & 0xFFFF_FFFFL;
  }

  /** Reads a signed 32-bit integer. */
  public int i32(String field) throws CorruptionException {
    need(4, field);
    int v = 0;
    for (int i = 3; i >= 0; i--) {
      v = (v << 8) | (bytes[pos + i] & 0xFF);
    }
    pos += 4;
    return v;
  }

  /** Reads a 64-bit integer. */
  public long u64(String field) throws CorruptionException {
    need(8, field);
    long v = 0;
    for (int i = 7; i >= 0; i--) {
      v = (v << 8) | (bytes[pos + i] & 0xFF);
    }
    pos += 8;
    return v;
  }

  /** Reads {@code length} bytes into a new array (a shared empty array for 0). */
  public byte[] bytes(int length, String field) throws CorruptionException {
    need(length, field);
    byte[] out = length == 0 ? EMPTY : Arrays.copyOfRange(bytes, pos, pos + length);
    pos += length;
    return out;
  }

  /**
   * A corruption report at {@code delta} bytes from the cursor (negative: inside a field just
   * read).
   */
  public CorruptionException corrupt(int delta, String fmt, Object... args) {
    return new CorruptionException(file, offset() + delta, what + ": " + fmt, args);
  }

  private void need(int n, String field) throws CorruptionException {
    if (n < 0 || end - pos < n) {
      throw corrupt(0, "%s needs %d bytes, %d left", field, n, end - pos);
    }
  }
}
