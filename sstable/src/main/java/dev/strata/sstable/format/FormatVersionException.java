package dev.strata.sstable.format;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A well-formed table whose format version this reader does not support: written by a newer release
 * (too new) or older than the oldest version still read (too old). Distinct from {@link
 * CorruptTableException}: the bytes passed their checksum.
 *
 * <p>Immutable.
 */
public final class FormatVersionException extends IOException {
  private static final long serialVersionUID = 1L;

  /** The version found in the file. */
  private final int version;

  /** A table {@code file} of format {@code version}, outside {@code [minVersion, maxVersion]}. */
  public FormatVersionException(Path file, int version, int minVersion, int maxVersion) {
    super("table format version " + Integer.toUnsignedString(version) + " is too "
        + (Integer.compareUnsigned(version, minVersion) < 0 ? "old" : "new")
        + "; this reader supports " + minVersion + ".." + maxVersion + " (file " + file + ")");
    this.version = version;
  }

  /** The version found in the file. */
  public int version() {
    return version;
  }
}
