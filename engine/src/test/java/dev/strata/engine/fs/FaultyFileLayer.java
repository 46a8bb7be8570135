package dev.strata.engine.fs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Predicate;

/**
 * A {@link FileLayer} for tests that stands between the engine and real files and remembers what a
 * power loss could take away (LevelDB's FaultInjectionTestEnv and Pebble's errorfs are the models):
 * for every file written through it, the length last forced, and whether its directory entry was
 * forced since it was created. {@link #powerLoss(Random)} then does to the files what a machine
 * losing power may do: each file keeps its forced bytes, and of the rest it keeps nothing, a random
 * prefix (the file's size cut anywhere), zeros, whole sectors followed by zeros, or zeros in a
 * stretch of whole sectors with the rest after it; a file whose name was never forced may vanish,
 * and a rename over an existing file whose directory was not synced since may be undone (the old
 * file comes back under its name, as it was). From that moment every write, force and rename through
 * the layer fails, as the machine is gone.
 *
 * <p>It also plays a full disk: while {@link #diskFull(boolean)} is on, every write fails with the
 * message of ENOSPC and writes nothing, while forces, truncation and reads go on (they need no new
 * space).
 *
 * <p>Files deleted outside the layer are not brought back by a power loss: a deletion never has to
 * be undone for a crash to be consistent (a leftover is deleted at the next open), so the layer
 * takes the harsher view that deletions stick.
 *
 * <p>Thread-safe.
 */
public final class FaultyFileLayer implements FileLayer {

  /** What a device writes whole or not at all. */
  private static final long SECTOR = 512;

  /** What a power loss keeps of the bytes written after the last force. */
  public enum Unsynced {
    /** Cut back to the forced length. */
    NOTHING,
    /** The length stays, the unforced bytes read as zeros. */
    ZEROS,
    /** A random prefix of the unforced bytes stays, the rest is cut. */
    PREFIX,
    /**
     * The sectors up to a random one arrived, the rest read as zeros: the prefix ends at a sector
     * boundary, or at the forced length when the sector holding it never arrived (it then still
     * holds what it held at the force). A byte-granular prefix followed by zeros would need a
     * device to write part of a sector, which it does not: the file's size that makes the zeros
     * visible and the sector's content each arrive whole or not.
     */
    PREFIX_THEN_ZEROS,
    /**
     * Sectors written back out of order: a random stretch of whole sectors reads as zeros, what
     * follows it stays.
     */
    HOLE,
    /** Everything written stays. */
    ALL
  }

  private static final class FileState {
    long syncedLength;
    boolean entrySynced;
    /** What the name held before an unsynced rename replaced it; null when there is none. */
    byte[] replaced;
    /** The forced length of {@link #replaced}. */
    long replacedSyncedLength;
  }

  private final Map<Path, FileState> files = new LinkedHashMap<>();
  private volatile boolean crashed;
  private boolean lossApplied;
  private volatile Predicate<Path> full = f -> false;
  private volatile Predicate<Path> failForces = f -> false;
  private volatile Predicate<Path> failCloses = f -> false;
  private volatile long writesBeforePowerLoss = Long.MAX_VALUE;
  private volatile Predicate<Path> countedWrites = f -> true;
  private final List<String> report = new ArrayList<>();

  @Override
  public synchronized FileChannel create(Path file) throws IOException {
    checkAlive();
    if (full.test(file)) {
      throw noSpace(file);
    }
    FileChannel ch = FileLayer.real().create(file);
    files.put(file, new FileState());
    return new Channel(file, ch);
  }

  @Override
  public synchronized FileChannel openForWrite(Path file) throws IOException {
    checkAlive();
    FileChannel ch = FileLayer.real().openForWrite(file);
    files.computeIfAbsent(file, f -> entrySyncedState(f));
    return new Channel(file, ch);
  }

  @Override
  public synchronized void rename(Path source, Path target) throws IOException {
    checkAlive();
    FileState moved = files.remove(source);
    if (moved == null) {
      moved = entrySyncedState(source);
    }
    FileState old = files.get(target);
    if (old == null && Files.exists(target)) {
      old = entrySyncedState(target);
    }
    byte[] oldBytes = null;
    long oldSynced = 0;
    if (old != null && old.replaced != null) {
      // Renamed over twice without a sync: the durable name still holds the first file.
      oldBytes = old.replaced;
      oldSynced = old.replacedSyncedLength;
    } else if (old != null && old.entrySynced) {
      oldBytes = Files.readAllBytes(target);
      oldSynced = Math.min(old.syncedLength, oldBytes.length);
    }
    FileLayer.real().rename(source, target);
    moved.entrySynced = false;
    moved.replaced = oldBytes;
    moved.replacedSyncedLength = oldSynced;
    files.put(target, moved);
  }

  @Override
  public synchronized void syncDirectory(Path dir) throws IOException {
    checkAlive();
    FileLayer.real().syncDirectory(dir);
    for (Map.Entry<Path, FileState> e : files.entrySet()) {
      if (dir.equals(Directories.parentOf(e.getKey()))) {
        e.getValue().entrySynced = true;
        e.getValue().replaced = null;
      }
    }
  }

  /** Makes every force of a file {@code which} accepts fail with an I/O error (an fsync EIO). */
  public void failForces(Predicate<Path> which) {
    failForces = which;
  }

  /** Makes closing a file {@code which} accepts throw (after closing it: nothing leaks). */
  public void failCloses(Predicate<Path> which) {
    failCloses = which;
  }

  /** Logs: for {@link #failForces} and {@link #failCloses}. */
  public static boolean isLog(Path file) {
    return FileNames.parse(file).map(f -> f.type() == FileNames.FileType.LOG).orElse(false);
  }

  /** The manifest and its temporary file while it is rewritten: for {@link #failForces}. */
  public static boolean isManifest(Path file) {
    return file.equals(FileNames.manifest(Directories.parentOf(file)))
        || file.equals(FileNames.manifestTemp(Directories.parentOf(file)));
  }

  /** Makes every write fail with ENOSPC ({@code true}) or succeed again ({@code false}). */
  public void diskFull(boolean on) {
    full = on ? f -> true : f -> false;
  }

  /**
   * Makes the writes to files {@code which} accepts fail with ENOSPC, and the creation of such
   * files: a disk that fills up just as one of them grows.
   */
  public void diskFull(Predicate<Path> which) {
    full = which;
  }

  /**
   * Arms a power loss that strikes once {@code n} more writes were made: from then on every write
   * and force fails; {@link #powerLoss(Random)} then takes the unforced bytes away.
   */
  public synchronized void powerLossAfterWrites(long n) {
    powerLossAfterWrites(n, f -> true);
  }

  /** As {@link #powerLossAfterWrites(long)}, counting only writes to files {@code which} accepts. */
  public synchronized void powerLossAfterWrites(long n, Predicate<Path> which) {
    writesBeforePowerLoss = n;
    countedWrites = which;
  }

  /** True once the power was lost. */
  public boolean crashed() {
    return crashed;
  }

  /**
   * Takes away what a power loss may take, chosen by {@code random}, and fails every later write:
   * see the class comment. Returns what it did to each file, for the failure message of a test.
   */
  public synchronized List<String> powerLoss(Random random) {
    if (lossApplied) {
      return List.copyOf(report);
    }
    lossApplied = true;
    crashed = true;
    for (Map.Entry<Path, FileState> e : files.entrySet()) {
      Path file = e.getKey();
      FileState s = e.getValue();
      try {
        if (!Files.exists(file)) {
          continue;
        }
        if (!s.entrySynced && s.replaced != null && random.nextBoolean()) {
          // The rename never reached the disk: the name holds the file it replaced.
          Files.write(file, s.replaced);
          report.add(file.getFileName() + ": rename never forced, the replaced file is back");
          s.syncedLength = s.replacedSyncedLength;
          s.entrySynced = true;
        } else if (!s.entrySynced && s.replaced == null && random.nextInt(3) == 0) {
          Files.delete(file);
          report.add(file.getFileName() + ": name never forced, file gone");
          continue;
        }
        long size = Files.size(file);
        long synced = Math.min(s.syncedLength, size);
        Unsynced what = Unsynced.values()[random.nextInt(Unsynced.values().length)];
        long keep = synced + (size > synced ? (long) (random.nextDouble() * (size - synced)) : 0);
        if (what == Unsynced.PREFIX_THEN_ZEROS) {
          keep = Math.max(synced, keep / SECTOR * SECTOR); // whole sectors arrived, see the enum
        }
        try (FileChannel ch = FileChannel.open(file, java.nio.file.StandardOpenOption.WRITE)) {
          switch (what) {
            case NOTHING -> ch.truncate(synced);
            case ZEROS -> zero(ch, synced, size);
            case PREFIX -> ch.truncate(keep);
            case PREFIX_THEN_ZEROS -> zero(ch, keep, size);
            case HOLE -> {
              // Whole sectors, as a device loses them: the ones between keep and a later point.
              long from = (keep + SECTOR - 1) / SECTOR * SECTOR;
              long to = (keep + (long) (random.nextDouble() * (size - keep))) / SECTOR * SECTOR;
              if (from < to) {
                zero(ch, from, to);
              }
            }
            case ALL -> {}
          }
        }
        report.add(
            file.getFileName() + ": " + size + " bytes, " + synced + " forced, unforced kept as "
                + what + (what == Unsynced.PREFIX || what == Unsynced.PREFIX_THEN_ZEROS
                    || what == Unsynced.HOLE ? " from " + keep : ""));
      } catch (IOException ex) {
        throw new UncheckedIOException(ex);
      }
    }
    return List.copyOf(report);
  }

  private static void zero(FileChannel ch, long from, long to) throws IOException {
    ByteBuffer zeros = ByteBuffer.allocate(4096);
    for (long p = from; p < to; ) {
      zeros.clear().limit((int) Math.min(4096, to - p));
      p += ch.write(zeros, p);
    }
  }

  private FileState entrySyncedState(Path file) {
    FileState s = new FileState();
    s.entrySynced = true; // it existed before the layer saw it
    try {
      s.syncedLength = Files.size(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return s;
  }

  private void checkAlive() throws IOException {
    if (crashed) {
      throw new IOException("power lost (FaultyFileLayer)");
    }
  }

  private static IOException noSpace(Path file) {
    return new IOException(file + ": No space left on device");
  }

  /** Counts a write to {@code file} against the armed power loss; true when the power goes now. */
  private synchronized boolean countWrite(Path file) {
    if (writesBeforePowerLoss != Long.MAX_VALUE
        && countedWrites.test(file)
        && --writesBeforePowerLoss < 0) {
      return true;
    }
    return false;
  }

  /** A channel that reports its writes and forces to the layer, and fails when the layer says. */
  private final class Channel extends FileChannel {
    private final Path file;
    private final FileChannel delegate;

    Channel(Path file, FileChannel delegate) {
      this.file = file;
      this.delegate = delegate;
    }

    private void beforeWrite() throws IOException {
      checkAlive();
      if (full.test(file)) {
        throw noSpace(file);
      }
      if (countWrite(file)) {
        crashed = true;
        throw new IOException("power lost (FaultyFileLayer)");
      }
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
      return delegate.read(dst);
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
      return delegate.read(dsts, offset, length);
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
      beforeWrite();
      return delegate.write(src);
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
      beforeWrite();
      return delegate.write(srcs, offset, length);
    }

    @Override
    public long position() throws IOException {
      return delegate.position();
    }

    @Override
    public FileChannel position(long newPosition) throws IOException {
      delegate.position(newPosition);
      return this;
    }

    @Override
    public long size() throws IOException {
      return delegate.size();
    }

    @Override
    public FileChannel truncate(long size) throws IOException {
      checkAlive();
      delegate.truncate(size);
      synchronized (FaultyFileLayer.this) {
        FileState s = files.get(file);
        s.syncedLength = Math.min(s.syncedLength, size);
      }
      return this;
    }

    @Override
    public void force(boolean metaData) throws IOException {
      checkAlive();
      if (failForces.test(file)) {
        throw new IOException(file + ": Input/output error (injected fsync failure)");
      }
      delegate.force(metaData);
      long size = delegate.size();
      synchronized (FaultyFileLayer.this) {
        files.get(file).syncedLength = size;
      }
    }

    @Override
    public long transferTo(long position, long count, WritableByteChannel target)
        throws IOException {
      return delegate.transferTo(position, count, target);
    }

    @Override
    public long transferFrom(ReadableByteChannel src, long position, long count)
        throws IOException {
      beforeWrite();
      return delegate.transferFrom(src, position, count);
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
      return delegate.read(dst, position);
    }

    @Override
    public int write(ByteBuffer src, long position) throws IOException {
      beforeWrite();
      return delegate.write(src, position);
    }

    @Override
    public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
      throw new UnsupportedOperationException("FaultyFileLayer does not map files");
    }

    @Override
    public FileLock lock(long position, long size, boolean shared) throws IOException {
      return delegate.lock(position, size, shared);
    }

    @Override
    public FileLock tryLock(long position, long size, boolean shared) throws IOException {
      return delegate.tryLock(position, size, shared);
    }

    @Override
    protected void implCloseChannel() throws IOException {
      delegate.close();
      if (failCloses.test(file)) {
        throw new IOException(file + ": Input/output error (injected close failure)");
      }
    }
  }
}
