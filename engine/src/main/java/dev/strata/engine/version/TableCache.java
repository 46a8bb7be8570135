package dev.strata.engine.version;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.strata.engine.CorruptionException;
import dev.strata.engine.fs.FileNames;
import dev.strata.engine.manifest.FileMetadata;
import dev.strata.sstable.MetadataPins;
import dev.strata.sstable.ReadCounters;
import dev.strata.sstable.TableReadOptions;
import dev.strata.sstable.TableReadStats;
import dev.strata.sstable.TableReader;
import dev.strata.sstable.cache.BlockCache;
import dev.strata.sstable.format.CorruptTableException;
import dev.strata.sstable.format.LazyLogger;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The open table readers of one database, at most {@code capacity} of them (LevelDB's table cache):
 * a file descriptor each, plus the parsed footer, properties, filter index and index. Every read of
 * a table, a Get as a scan or a compaction, holds the table's reader here ({@link #acquire}) and
 * gives it back ({@link #release}); the least recently used readers nobody holds are closed
 * whenever more than {@code capacity} are open, and reopened on the next acquire. That is all it
 * does: which tables are live, and when their files go, is the version set's business ({@link
 * ObsoleteFiles}), which tells it to {@link #evict} a reader.
 *
 * <p><b>Holders.</b> A reader is closed only when nobody holds it, so no read has a reader closed
 * under it. A Get holds a reader for one probe; scans and compactions for their iterator's life,
 * which is why they read deeper levels one table at a time ({@code read.LevelIterator}). When every
 * open reader is held the cache opens one more rather than wait (as LevelDB's does), so the bound
 * holds as long as fewer than {@code capacity} holders are out at once; waiting instead could hang
 * a Get forever behind scanners an application keeps open.
 *
 * <p><b>No lock on the way in.</b> A reader's holders are one {@link StripedRefCount}: acquiring an
 * open reader is a map lookup and an increment of a stripe of the calling thread, so two threads
 * reading one table write no common cache line. Closing a reader claims it under its monitor: it
 * closes the count, finds it idle, and only then takes it; a claim that finds a holder reopens the
 * count and gives up. An acquire refused meanwhile takes the locked path, which reopens the reader
 * if it is still in the map. The last holder of an evicted reader closes it.
 *
 * <p>Thread-safe: one lock guards changes to the map and the counts of readers opening and leaving;
 * files are opened and closed outside it (and outside the database's mutex).
 */
public final class TableCache implements AutoCloseable {
  private static final System.Logger LOG = LazyLogger.of(TableCache.class);

  /** {@code maxOpenFiles} for no limit. */
  public static final int UNLIMITED = -1;

  /** Most readers {@link #openAhead} opens into a bounded cache (RocksDB's kInitialLoadLimit). */
  static final int OPEN_AHEAD_LIMIT = 16;

  private final Path dir;
  private final int capacity;
  private final BlockCache blockCache;
  private final ReadCounters counters;

  /**
   * What the readers of tables this process wrote count into, apart from {@link #counters} (see
   * {@link #countsAsWrittenHere}): a Get that reads such a table's metadata from disk shows there.
   */
  private final ReadCounters writtenHereCounters = new ReadCounters();

  /** The first file number this process hands out; {@link Long#MAX_VALUE} until recovery sets it. */
  private volatile long firstWrittenHere = Long.MAX_VALUE;

  private final ReentrantLock lock = new ReentrantLock();

  /** Open readers; read without the lock, changed under it. */
  private final ConcurrentHashMap<Long, TableHandle> open = new ConcurrentHashMap<>();

  /** Readers being opened now, counted against the capacity; written under the lock. */
  private volatile int opening;

  /** Readers out of the map but not closed yet: evicted but held, or being closed; written under the lock. */
  private volatile int leaving;

  private final LongAdder opens = new LongAdder();
  /** {@link TableReader#pinnedBytes()} summed over the readers open now. */
  private final LongAdder pinnedBytes = new LongAdder();

  /** See {@link #servesReadOnlyOpen}. */
  private volatile boolean readOnly;

  /** See {@link #pins}. */
  private final MetadataPinning pinning = new MetadataPinning();

  /** See {@link #readsWith}. */
  private volatile TableReadOptions readOptions = TableReadOptions.defaults();

  /**
   * @param maxOpenFiles readers open at once, at most; {@link #UNLIMITED} for no limit
   * @param blockCache where the readers cache blocks
   * @param counters what the readers count into (the read path's counters)
   */
  public TableCache(Path dir, int maxOpenFiles, BlockCache blockCache, ReadCounters counters) {
    if (maxOpenFiles != UNLIMITED && maxOpenFiles < 1) {
      throw new IllegalArgumentException("maxOpenFiles must be -1 or positive: " + maxOpenFiles);
    }
    this.dir = dir;
    this.capacity = maxOpenFiles == UNLIMITED ? Integer.MAX_VALUE : maxOpenFiles;
    this.blockCache = blockCache;
    this.counters = counters;
  }
  /**
   * Tables numbered {@code firstFileNumber} or above count their reads apart, in {@link
   * #writtenHereStats}: file numbers only grow, so from the first number this process hands out on,
   * every table was written by its flushes and compactions. Set once by recovery.
   */
  public void countsAsWrittenHere(long firstFileNumber) {
    firstWrittenHere = firstFileNumber;
  }

  /** The reads of the tables this process wrote (see {@link #countsAsWrittenHere}). */
  public TableReadStats writtenHereStats() {
    return writtenHereCounters.snapshot();
  }

  /** The block cache the open tables read through. */
  public BlockCache blockCache() {
    return blockCache;
  }


  /**
   * How many tables one job may hold open at once and still leave the reads their share: half of
   * {@code maxOpenFiles}, or {@link Integer#MAX_VALUE} when it is unlimited.
   */
  public int openTablesPerJob() {
    return capacity == Integer.MAX_VALUE ? Integer.MAX_VALUE : Math.max(2, capacity / 2);
  }

  /** Holds the reader of a table not at level 0; see {@link #acquire(Long, boolean)}. */
  TableHandle acquire(long fileNumber) throws IOException {
    return acquire(fileNumber, false);
  }

  /**
   * Holds the reader of table {@code fileNumber}, opening it when it is not open; a level-0 table
   * ({@code levelZero}) opens with its filter chunks and index partitions pinned in the block cache
   * when the cache {@link #pins} them, and any table its filter chunks when it pins filters. They stay pinned while the reader is open: until
   * the table leaves every version (compacted away, or moved to a deeper level, which reopens it
   * unpinned) or the cache closes the reader to stay within {@code maxOpenFiles}. Give it back with
   * {@link #release}, on any thread. The caller holds a reference on the table; {@code fileNumber}
   * is the table's boxed key, boxed once by it, so a Get boxes nothing.
   *
   * @throws CorruptionException when the table's footer, properties or index is damaged
   */
  TableHandle acquire(Long fileNumber, boolean levelZero) throws IOException {
    TableHandle h = open.get(fileNumber);
    if (h != null) {
      if (h.tryAcquire()) {
        touch(h);
        return h;
      }
      if (h.isEvicted()) {
        afterLastHolder(h); // a claim's scan may have seen this refused acquire as a holder
      }
    }
    List<TableHandle> evicted;
    lock.lock();
    try {
      h = open.get(fileNumber); // in the map under the lock: never claimed
      if (h != null && h.tryAcquire()) {
        touch(h);
        return h;
      }
      evicted = evictExcess(1);
      opening++;
    } finally {
      lock.unlock();
    }
    closeAll(evicted);
    TableHandle fresh = null;
    TableHandle winner;
    try {
      fresh = new TableHandle(fileNumber, openReader(fileNumber, pinning.forTable(levelZero)));
      touch(fresh);
    } finally {
      lock.lock();
      try {
        opening--;
        winner = fresh == null ? null : open.putIfAbsent(fileNumber, fresh);
        if (winner == null) {
          winner = fresh;
        } else {
          leaving++; // another thread opened it meanwhile: ours goes
          if (!winner.tryAcquire()) {
            throw new AssertionError("a reader in the map is closing: table " + fileNumber);
          }
          touch(winner);
        }
      } finally {
        lock.unlock();
      }
    }
    if (winner != fresh) {
      fresh.claim();
      closeAll(List.of(fresh));
    }
    return winner;
  }

  /**
   * Opens the readers of tables {@code files}, in that order, before a read asks for them
   * (the database does it at open): all of them when the cache is unbounded, as RocksDB opens every
   * table at open under {@code max_open_files = -1}, else at most {@link #OPEN_AHEAD_LIMIT} and a
   * quarter of the capacity (RocksDB's initial load limit), leaving room for the tables reads ask
   * for; never more than {@code atMost}. So the first Get reads only the blocks it needs (a filter
   * chunk, an index partition, a data block), not the footer, properties and index root of every
   * table it consults.
   *
   * <p>Best effort: a table that fails to open stays closed, and the read that needs it opens it
   * again and reports the failure, as it did before; a damaged table fails the reads that reach it,
   * not the open. A failure that is not damage (out of descriptors, an I/O error) stops the opening
   * ahead: the remaining tables open on first use.
   */
  public void openAhead(List<FileMetadata> files, long atMost) {
    long limit = capacity == Integer.MAX_VALUE ? files.size()
        : Math.min(OPEN_AHEAD_LIMIT, capacity / 4);
    int n = (int) Math.min(Math.min(limit, atMost), files.size());
    for (FileMetadata f : files.subList(0, n)) {
      long fileNumber = f.fileNumber();
      try {
        release(acquire(fileNumber, f.level() == 0));
      } catch (CorruptionException e) {
        LOG.log(System.Logger.Level.WARNING, "table " + fileNumber + " is damaged; the reads that"
            + " need it will fail", e);
      } catch (NoSuchFileException e) {
        // Compacted away since the caller listed it (after a flush), or missing, which the reads
        // that need it report.
      } catch (IOException e) {
        LOG.log(System.Logger.Level.WARNING, "stopped opening tables ahead of reads at table "
            + fileNumber + "; the rest open when a read needs them", e);
        return;
      }
    }
  }

  /** Records an acquire's time for the least-recently-used choice; unbounded, nothing is evicted. */
  private void touch(TableHandle h) {
    if (capacity != Integer.MAX_VALUE) {
      h.touch();
    }
  }

  /**
   * Gives back a reader held by {@link #acquire}; the reader may be closed now, when it was evicted
   * and this was its last holder, or when the cache is over capacity.
   */
  void release(TableHandle h) {
    if (h.release() || capacity != Integer.MAX_VALUE) {
      afterLastHolder(h);
    }
  }

  /** A holder of {@code h} left: close it if it is evicted and unheld, or if over capacity. */
  private void afterLastHolder(TableHandle h) {
    if (h.isEvicted()) {
      // Counted as leaving when it was evicted; whoever claims it closes it.
      if (h.tryClaim()) {
        closeAll(List.of(h));
      }
      return;
    }
    if (capacity == Integer.MAX_VALUE || openNow() <= capacity) {
      return;
    }
    List<TableHandle> toClose;
    lock.lock();
    try {
      toClose = evictExcess(0);
    } finally {
      lock.unlock();
    }
    closeAll(toClose);
  }

  /** What {@link #evict} did with a table's reader. */
  public enum Eviction {
    /** No reader of the table was open. */
    NOT_OPEN,
    /** The reader was closed before the call returned. */
    CLOSED,
    /** The reader is held: its last holder closes it, then runs the given action. */
    CLOSES_WHEN_RELEASED
  }

  /**
   * Takes table {@code fileNumber}'s reader out of the cache and closes it once nobody holds it: the
   * table left every version ({@link ObsoleteFiles}). When it is held, its last holder closes it and
   * then runs {@code afterLateClose}. (A reader an eviction for capacity is closing at that very
   * moment is out of the map already: it is not waited for.)
   */
  public Eviction evict(long fileNumber, Runnable afterLateClose) {
    TableHandle h;
    lock.lock();
    try {
      h = open.remove(fileNumber);
      if (h == null) {
        return Eviction.NOT_OPEN;
      }
      leaving++;
      h.markEvicted(afterLateClose); // a holder out now (or acquiring from a lookup just before) closes it
    } finally {
      lock.unlock();
    }
    if (h.tryClaim()) {
      h.takeAfterClose(); // closed here: the caller acts now
      closeAll(List.of(h));
      return Eviction.CLOSED;
    }
    return Eviction.CLOSES_WHEN_RELEASED;
  }

  /**
   * Marks the cache as serving a read-only open beside a possible writer, whose compactions may
   * delete tables this open still lists: opening such a table then fails with a message that says
   * so (RocksDB's read-only open behaves alike). Readers already open keep reading their file.
   */
  public void servesReadOnlyOpen() {
    readOnly = true;
  }

  /**
   * Makes tables open with metadata pinned in the block cache: with {@code levelZeroMetadata} a
   * level-0 table its filter chunks and index partitions (RocksDB's {@code
   * pin_l0_filter_and_index_blocks_in_cache}); with {@code filters} every table its filter chunks,
   * for filters sized to stay in the cache's metadata share, so that no data block or index
   * partition ever evicts them and an absent Get whose filter says no reads nothing from the file.
   * Readers open already keep what they have.
   */
  public void pins(boolean levelZeroMetadata, boolean filters) {
    if (levelZeroMetadata) {
      pinning.levelZero();
    }
    if (filters) {
      pinning.filters();
    }
  }

  /** Makes readers open from now on read their files as {@code options} say (direct reads or not). */
  public void readsWith(TableReadOptions options) {
    readOptions = options;
  }

  /** Readers open now, held or not. */
  public int openReaders() {
    lock.lock();
    try {
      return openNow();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Heap bytes the open readers hold outside the block cache (index top levels and filter
   * indexes): what keeping tables open costs besides the cache.
   */
  public long pinnedBytes() {
    return pinnedBytes.sum();
  }

  /** Readers opened since the cache was made, reopens included. */
  public long opens() {
    return opens.sum();
  }

  /** Closes every reader still open; the database has released every version before. */
  @Override
  public void close() {
    List<TableHandle> all;
    lock.lock();
    try {
      all = new ArrayList<>(open.values());
      open.clear();
      leaving += all.size();
      for (TableHandle h : all) {
        h.claim(); // no read runs any more: every version is released
      }
    } finally {
      lock.unlock();
    }
    closeAll(all);
  }

  /** Readers open or being opened; exact under the lock, a hint without it. */
  private int openNow() {
    return open.size() + opening + leaving;
  }

  /**
   * Takes least recently used readers nobody holds out of the map until {@code extra} more fit under
   * the capacity (or none is left to take); the caller closes them outside the lock. Each pass
   * claims the oldest reader nobody holds (a scan: the bound is small, and this runs only over it).
   */
  @GuardedBy("lock")
  private List<TableHandle> evictExcess(int extra) {
    List<TableHandle> out = List.of();
    long excess = (long) openNow() + extra - capacity;
    while (excess > 0) {
      TableHandle oldest = null;
      for (TableHandle h : open.values()) {
        if (h.unheld() && (oldest == null || h.usedBefore(oldest))) {
          oldest = h;
        }
      }
      if (oldest == null) {
        break; // every reader is held
      }
      if (!oldest.tryClaim()) {
        continue; // held meanwhile: choose again
      }
      open.remove(oldest.fileNumber());
      leaving++; // still open until the caller closes it, but no longer in excess
      excess--;
      if (out.isEmpty()) {
        out = new ArrayList<>();
      }
      out.add(oldest);
    }
    return out;
  }

  /**
   * Opens a reader. The caller's interrupt status is set aside meanwhile and restored after: an
   * interrupted thread's I/O on a FileChannel closes it, and a Get by a thread its application
   * interrupted must neither fail nor break the table for others (the reader's own reads do the
   * same).
   */
  private TableReader openReader(long fileNumber, MetadataPins pins) throws IOException {
    boolean interrupted = Thread.interrupted();
    try {
      TableReader r = TableReader.open(
          FileNames.table(dir, fileNumber), fileNumber, blockCache,
          fileNumber >= firstWrittenHere ? writtenHereCounters : counters, pins, readOptions);
      opens.increment();
      pinnedBytes.add(r.pinnedBytes());
      return r;
    } catch (CorruptTableException e) {
      throw TableRef.translate(e);
    } catch (NoSuchFileException e) {
      if (!readOnly) {
        throw e;
      }
      throw new NoSuchFileException(
          e.getFile(),
          null,
          "deleted since this read-only open (a writer's compaction replaced it); the open still "
              + "reads the tables it holds open, reopen it to read the current state");
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * Closes readers already counted as leaving, outside the lock, and runs the action an eviction
   * left for each.
   */
  private void closeAll(List<TableHandle> handles) {
    if (handles.isEmpty()) {
      return;
    }
    for (TableHandle h : handles) {
      pinnedBytes.add(-h.reader().pinnedBytes());
      try {
        h.reader().close();
      } catch (IOException e) {
        // A read-only file: nothing is lost; the descriptor is gone or goes with the channel.
        LOG.log(System.Logger.Level.WARNING, "could not close " + h.reader().path(), e);
      }
      Runnable after = h.takeAfterClose();
      if (after != null) {
        after.run();
      }
    }
    lock.lock();
    try {
      leaving -= handles.size();
    } finally {
      lock.unlock();
    }
  }
}
