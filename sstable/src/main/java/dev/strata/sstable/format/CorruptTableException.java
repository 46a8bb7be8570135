package dev.strata.sstable.format;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Bytes of a table file failed their checksum or do not parse: the file is damaged (or is not a
 * table at all). The message always names the file and the byte offset where the bad bytes lie; the
 * engine turns this into its public {@code CorruptionException} at its boundary.
 *
 * <p>Never used for a format version this reader does not know (that is {@link
 * FormatVersionException}) nor for caller misuse.
 *
 * <p>Immutable.
 */
public final class CorruptTableException extends IOException {
  private static final long serialVersionUID = 1L;

  /** The damaged file. */
  private final transient Path file;

  /** The offset in the file of the bytes that failed; -1 when the whole file is at fault. */
  private final long offset;

  /** A corruption at {@code offset} of {@code file}, described by {@code String.format(fmt, args)}. */
  public CorruptTableException(Path file, long offset, String fmt, Object... args) {
    super(message(file, offset, fmt, args));
    this.file = file;
    this.offset = offset;
  }

  /** As {@link #CorruptTableException(Path, long, String, Object...)}, with the failure that revealed it. */
  public CorruptTableException(Path file, long offset, Throwable cause, String fmt, Object... args) {
    super(message(file, offset, fmt, args), cause);
    this.file = file;
    this.offset = offset;
  }

  /** The damaged file. */
  public Path file() {
    return file;
  }

  /** The offset of the bad bytes in {@link #file()}, or -1 when the whole file is at fault. */
  public long offset() {
    return offset;
  }

  private static String message(Path file, long offset, String fmt, Object... args) {
    return String.format(Locale.ROOT, fmt, args) + " (file " + file + ", offset " + offset + ")";
  }
}
