package dev.strata.engine;

import dev.strata.engine.fs.FileLayer;
import dev.strata.engine.log.LogWriter;
import dev.strata.sstable.format.LazyLogger;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Forces and closes a log that takes no more writes, on the flush thread, before the flush of the
 * memtable it holds: a power loss under {@code syncWrites(false)} while that flush runs then finds
 * the log whole on disk and replays it. The switch to a new log leaves the old one unforced so the
 * writers never wait for the device under the mutex (see {@code WritePath}); this is where the
 * force happens instead.
 *
 * <p>Thread-safe (stateless past construction); called by the one flush thread.
 */
final class LogRetirement {
  private static final System.Logger LOG = LazyLogger.of(LogRetirement.class);

  private final Path dir;
  private final FileLayer files;
  /** With synced writes every append was forced already, and the log's directory entry too. */
  private final boolean appendsForced;

  LogRetirement(Path dir, FileLayer files, boolean appendsForced) {
    this.dir = dir;
    this.files = files;
    this.appendsForced = appendsForced;
  }

  /**
   * Forces {@code old} with its directory entry, then closes it. Returns the log's length, forced,
   * or -1 when the force failed: that loses nothing the process holds (the memtable is flushed
   * from memory all the same), and it is logged. Closes the log in every case.
   */
  long retire(LogWriter old) {
    try {
      if (!appendsForced) {
        old.sync();
        files.syncDirectory(dir);
      }
      return old.size();
    } catch (IOException | RuntimeException e) {
      LOG.log(
          System.Logger.Level.WARNING,
          "could not force " + old.file() + " before flushing its memtable; until the flush is"
              + " installed a power loss may cut this log",
          e);
      return -1;
    } finally {
      try {
        old.close();
      } catch (IOException e) {
        LOG.log(System.Logger.Level.WARNING, "could not close " + old.file(), e);
      }
    }
  }
}
