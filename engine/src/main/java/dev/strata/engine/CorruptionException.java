package dev.strata.engine;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Bytes read from disk failed their checksum or did not parse. The message names the file and the
 * byte offset at which the damage was found; Strata never returns wrong data instead.
 *
 * <p>Not thread-safe (an exception).
 */
public class CorruptionException extends IOException {

  /** Serialization version. */
  private static final long serialVersionUID = 1L;

  /** The offset reported when the damaged position is not known. */
  public static final long UNKNOWN_OFFSET = -1;

  /** The damaged file, or null when only the cause knows it. */
  private final transient Path file;

  /** The byte offset of the damage in {@link #file}, or {@link #UNKNOWN_OFFSET}. */
  private final long offset;

  /**
   * Reports damage at {@code offset} of {@code file}; the detail is {@code String.format(fmt,
   * args)} in the root locale.
   */
  public CorruptionException(Path file, long offset, String fmt, Object... args) {
    super(message(file, offset, fmt, args));
    this.file = file;
    this.offset = offset;
  }

  /** Like {@link #CorruptionException(Path, long, String, Object...)}, keeping a cause. */
  public CorruptionException(Path file, long offset, Throwable cause, String fmt, Object... args) {
    super(message(file, offset, fmt, args), cause);
    this.file = file;
    this.offset = offset;
  }

  /**
   * Wraps a lower layer's report of corruption (for example an SSTable reader's), whose message
   * already names the file and the offset.
   */
  public CorruptionException(String message, Throwable cause) {
    super(message, cause);
    this.file = null;
    this.offset = UNKNOWN_OFFSET;
  }

  /** The damaged file, or null when this exception wraps a lower layer's report. */
  public Path file() {
    return file;
  }

  /** The byte offset of the damage, or {@link #UNKNOWN_OFFSET}. */
  public long offset() {
    return offset;
  }

  private static String message(Path file, long offset, String fmt, Object... args) {
    return "corrupt "
        + file
        + " at offset "
        + offset
        + ": "
        + String.format(Locale.ROOT, fmt, args);
  }
}
