package dev.strata.engine.fs;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The exclusive lock a database holds on its directory while it is open: an operating-system lock
 * on the directory's {@code LOCK} file, so a second open fails whether it comes from this process
 * or another one.
 *
 * <p>Within one JVM, a second attempt is refused from a process-wide registry <em>before</em> the
 * LOCK file is opened again. That order matters: POSIX record locks belong to the process, and
 * closing any descriptor of the file (as a failed second attempt would) silently releases the lock
 * that the first open still relies on, letting another process in. The LOCK file is never deleted,
 * since a delete racing another process's open would give the two of them locks on two different
 * files.
 *
 * <p>Thread-safe.
 */
public final class DirectoryLock implements AutoCloseable {

  /** Real paths of the directories locked by this process. */
  private static final Set<Path> HELD = ConcurrentHashMap.newKeySet();

  private final Path dir;
  private final FileChannel channel;
  private final FileLock lock;
  private final AtomicBoolean closed = new AtomicBoolean();

  private DirectoryLock(Path dir, FileChannel channel, FileLock lock) {
    this.dir = dir;
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * Locks the existing directory {@code dir}, creating its LOCK file if needed.
   *
   * @throws IOException saying the directory is locked when this or another process holds it, or on
   *     an I/O failure
   */
  public static DirectoryLock acquire(Path dir) throws IOException {
    Path real = dir.toRealPath();
    if (!HELD.add(real)) {
      throw locked(real, "it is already open in this process");
    }
    FileChannel ch = null;
    try {
      ch =
          FileChannel.open(
              FileNames.lock(real), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      FileLock lock;
      try {
        lock = ch.tryLock();
      } catch (OverlappingFileLockException e) {
        // Some other code of this JVM locked the file outside this class.
        throw locked(real, "it is already open in this process");
      }
      if (lock == null) {
        throw locked(real, "another process holds " + FileNames.lock(real));
      }
      return new DirectoryLock(real, ch, lock);
    } catch (Throwable t) {
      Closeables.closeSuppressing(t, ch);
      HELD.remove(real);
      throw t;
    }
  }

  /** The locked directory, as a real path. */
  public Path directory() {
    return dir;
  }

  /** Releases the lock. Idempotent. */
  @Override
  public void close() throws IOException {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    try {
      Closeables.closeAll(java.util.List.of(lock, channel));
    } finally {
      HELD.remove(dir);
    }
  }

  @Override
  public String toString() {
    return "DirectoryLock[" + dir + (closed.get() ? ", released]" : "]");
  }

  private static IOException locked(Path dir, String why) {
    return new IOException("database directory " + dir + " is locked: " + why);
  }
}
