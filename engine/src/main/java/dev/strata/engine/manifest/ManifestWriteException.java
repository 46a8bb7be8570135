package dev.strata.engine.manifest;

import java.io.IOException;

/**
 * A manifest write that failed; {@link #mayBeDurable()} says whether the new state may still have
 * reached the disk (see {@link ManifestLog}). When it may, the engine keeps the files of both the
 * old and the new state until a later write has made one of them certain.
 */
public final class ManifestWriteException extends IOException {
  private static final long serialVersionUID = 1L;

  private final boolean mayBeDurable;

  public ManifestWriteException(String message, IOException cause, boolean mayBeDurable) {
    super(message + (mayBeDurable ? " (the change may or may not be durable)" : ""), cause);
    this.mayBeDurable = mayBeDurable;
  }

  /** False when the new state certainly did not reach the manifest; true when it may have. */
  public boolean mayBeDurable() {
    return mayBeDurable;
  }

  /**
   * True when {@code e}, thrown by an install, leaves it possible that the manifest now lists the
   * install's new tables: only a manifest write that may be durable. Any other failure happened
   * before the manifest was touched, or left it as it was.
   */
  public static boolean mayHaveReachedDisk(Throwable e) {
    return e instanceof ManifestWriteException m && m.mayBeDurable;
  }
}
