package dev.strata.engine.compaction;

import java.io.IOException;

/**
 * Thrown by a flush or compaction that stopped because the database is closing: its partial outputs
 * are deleted and its inputs stay as they are. Nothing acknowledged depends on it (a clean close
 * forces the logs the unflushed memtables live in), so the close need not wait for it to finish, as
 * RocksDB's close abandons the compactions it finds running.
 */
public final class JobAbandonedException extends IOException {
  private static final long serialVersionUID = 1L;

  public JobAbandonedException(String message) {
    super(message);
  }
}
