package dev.strata.engine;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A file's checksums are intact but it was written in a format version this release cannot read
 * (too old or too new). Distinct from {@link CorruptionException}: the bytes are not damaged.
 *
 * <p>Not thread-safe (an exception).
 */
public class FormatVersionException extends IOException {

  /** Serialization version. */
  private static final long serialVersionUID = 1L;

  /** The version found in the file. */
  private final int version;

  /**
   * Reports that {@code file} has format {@code version}, outside {@code [minVersion, maxVersion]}.
   */
  public FormatVersionException(Path file, int version, int minVersion, int maxVersion) {
    super(
        file
            + ": format version "
            + version
            + " is too "
            + (version < minVersion ? "old" : "new")
            + " (this release reads versions "
            + minVersion
            + " to "
            + maxVersion
            + ")");
    this.version = version;
  }

  /** The version found in the file. */
  public int version() {
    return version;
  }
}
