package dev.strata.engine.version;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.strata.engine.CorruptionException;
import dev.strata.engine.fs.FileNames;
import dev.strata.engine.manifest.FileMetadata;
import dev.strata.sstable.ReadCounters;
import dev.strata.sstable.TableReadOptions;
import dev.strata.sstable.TableReader;
import dev.strata.sstable.cache.BlockCache;
import dev.strata.sstable.format.CorruptTableException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The open table readers of one database, at most {@code capacity} of them (LevelDB's table cache):
 * a file descriptor each, plus the parsed footer, properties, filter index and index. Every read of a
 * table, by a Get, a scan or a compaction, leases the table's reader here and returns it; the least
 * recently used readers that no lease holds are closed whenever more than {@code capacity} are open,
 * and reopened on the next lease.
 *
 * <p><b>Leases.</b> A reader is closed only when no lease holds it, so a Get, scan or compaction never
 * has a reader closed under it; a lease is short for a Get (one table probe) and lasts an iterator's
 * life for scans and compactions, which is why they read deeper levels one table at a time
 * ({@code read.LevelIterator}): a scan holds one lease per level-0 table and one per deeper level.
 * When every open reader is leased the cache opens one more rather than wait (as LevelDB's does), so
 * the bound holds as long as fewer than {@code capacity} leases are out at once; waiting instead
 * could hang a Get forever behind scanners an application keeps open.
 *
 * <p><b>Dropping.</b> When a table leaves the last version ({@link TableRef}), its reader is dropped:
 * closed at once, or at its last return when leased. A trivially moved table (same file, new level)
 * then reopens under its new entry.
 *
 * <p><b>Retiring.</b> The last reference to a table may go while the database's mutex is held (an
 * install releases the version it replaced). Closing its reader and deleting an obsolete file are
 * I/O that writers must not wait behind, so a table retired under that lock is queued, and the
 * database reclaims the queue once it has released the mutex ({@link #reclaimRetired}), on the
 * background thread that installed. A table retired without it, by a read releasing its view, is
 * reclaimed on the deletes thread ({@link BackgroundDeletes}): an unlink of a 64 MiB table took the
 * Get that released it over 100 ms. A file is deleted only once its reader is closed, since the
 * file system frees an unlinked file's pages at its last close: a reader still held when its table
 * is reclaimed keeps the file, and the close by its last holder hands the deletion to that thread.
 *
 * <p><b>No lock on a lease.</b> A lease of an open reader is a map lookup and a compare-and-set on the
 * reader's lease count, its return a decrement: Gets leased each table they consulted, and a lock
 * taken twice per table (with an access-ordered map reordered under it) made readers on different
 * cores queue behind each other. A reader leaves the map and closes only by setting its count from 0
 * to {@code CLOSED}, so a lease either lands before that (and the reader stays open until its
 * return) or fails and takes the locked path, which reopens it. Recency is a timestamp on the reader,
 * written only when the capacity is bounded (unbounded, nothing is evicted, so nothing is recorded).
 *
 * <p><b>Gets write no shared line.</b> A Get does not take a lease: it enters the open reader
 * ({@link #enterGet}), counted on a stripe of its thread ({@link StripedReaders}), and leaves it
 * ({@link #exitGet}); two threads reading one table then write no common cache line. Closing a
 * reader claims it only when neither a lease nor a Get holds it: under the handle's monitor it
 * closes the reader's Gets, scans their stripes, then sets the lease count from 0 to {@code CLOSED},
 * and reopens the Gets when either finds a holder. A Get refused meanwhile takes a lease instead.
 * The last holder of a dropped reader to leave, lease or Get, closes it.
 *
 * <p>Thread-safe: one lock guards changes to the map and the counts; files are opened and closed
 * outside it (and outside the database's mutex).
 */
public final class TableCache implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(TableCache.class.getName());

  /** {@code maxOpenFiles} for no limit. */
  public static final int UNLIMITED = -1;

  /** Most readers {@link #openAhead} opens into a bounded cache (RocksDB's kInitialLoadLimit). */
  static final int OPEN_AHEAD_LIMIT = 16;

  private final Path dir;
  private final int capacity;
  private final BlockCache blockCache;
  private final ReadCounters counters;

  private final ReentrantLock lock = new ReentrantLock();

  /** Open readers; read without the lock, changed under it. */
  private final ConcurrentHashMap<Long, Handle> open = new ConcurrentHashMap<>();

  /** Readers being opened now, counted against the capacity; written under the lock. */
  private volatile int opening;

  /** Readers out of the map but not closed yet: dropped but leased, or being closed; written under the lock. */
  private volatile int leaving;

  private final LongAdder opens = new LongAdder();
  /** {@link TableReader#pinnedBytes()} summed over the readers open now. */
  private final LongAdder pinnedBytes = new LongAdder();

  /** See {@link #servesReadOnlyOpen}. */
  private volatile boolean readOnly;

  /** See {@link #pinsLevelZeroMetadata}. */
  private volatile boolean pinLevelZero;

  /** See {@link #readsWith}. */
  private volatile TableReadOptions readOptions = TableReadOptions.defaults();

  /** Tables are retired, not reclaimed, while the current thread holds this; null: never. */
  private final ReentrantLock deferWhileHeld;

  /** Tables retired under {@link #deferWhileHeld}, waiting for {@link #reclaimRetired}. */
  private final ConcurrentLinkedQueue<Retired> retired = new ConcurrentLinkedQueue<>();

  /** A table no version lists any more: its reader goes, and its file if compaction replaced it. */
  private record Retired(long fileNumber, Path obsoleteFile) {}

  /** Where reads hand the reclaiming they must not wait on. */
  private final BackgroundDeletes deletes = new BackgroundDeletes();

  /** A leased reader; give it back with {@link TableCache#release}. */
  public static final class Handle {
    /** The lease count of a reader that left the map to be closed: no lease can be taken any more. */
    private static final int CLOSED = Integer.MIN_VALUE;

    private final long fileNumber;
    private final TableReader reader;

    /** Leases out now, or {@link #CLOSED}. */
    private final AtomicInteger leases = new AtomicInteger(1); // the opener's

    /** Gets inside the reader now; closed (for good) once the reader is claimed for closing. */
    private final StripedReaders gets = new StripedReaders();

    /** Set (under the lock) when the table left every version: the last return closes it. */
    private volatile boolean dropped;

    /** The file to delete once this reader is closed; set with {@link #dropped}, before it. */
    private volatile Path deleteAfterClose;

    /** {@link System#nanoTime} of the last lease; kept only under a bounded capacity. */
    private volatile long lastUse;

    private Handle(long fileNumber, TableReader reader) {
      this.fileNumber = fileNumber;
      this.reader = reader;
    }

    /** Takes a lease unless the reader is closing. */
    private boolean tryLease() {
      for (int n = leases.get(); n >= 0; n = leases.get()) {
        if (leases.compareAndSet(n, n + 1)) {
          return true;
        }
      }
      return false;
    }

    /**
     * Claims a reader no lease and no Get holds for closing; false when one does (or it is claimed
     * already). Serialised: the Gets are closed for the scan and reopened when it finds one inside,
     * and a concurrent claim must not reopen them after another's succeeded.
     */
    private synchronized boolean tryClose() {
      if (leases.get() == CLOSED) {
        return false;
      }
      gets.close();
      if (gets.idle() && leases.compareAndSet(0, CLOSED)) {
        return true;
      }
      gets.reopen();
      return false;
    }

    /** Marks a reader closed that no read can reach any more. */
    private void setClosed() {
      gets.close();
      leases.set(CLOSED);
    }

    /** True when neither a lease nor a Get holds the reader; a hint unless claimed. */
    private boolean unheld() {
      return leases.get() == 0 && gets.idle();
    }

    /** The open reader; valid until the lease is released. */
    public TableReader reader() {
      return reader;
    }
  }

  /**
   * @param maxOpenFiles readers open at once, at most; {@link #UNLIMITED} for no limit
   * @param blockCache where the readers cache blocks
   * @param counters what the readers count into (the read path's counters)
   */
  public TableCache(Path dir, int maxOpenFiles, BlockCache blockCache, ReadCounters counters) {
    this(dir, maxOpenFiles, blockCache, counters, null);
  }

  /**
   * As above, deferring the reclaiming of retired tables while the current thread holds {@code
   * deferWhileHeld} (the database's mutex), and asserting that no reader is closed under it.
   */
  public TableCache(
      Path dir,
      int maxOpenFiles,
      BlockCache blockCache,
      ReadCounters counters,
      ReentrantLock deferWhileHeld) {
    this.deferWhileHeld = deferWhileHeld;
    if (maxOpenFiles != UNLIMITED && maxOpenFiles < 1) {
      throw new IllegalArgumentException("maxOpenFiles must be -1 or positive: " + maxOpenFiles);
    }
    this.dir = dir;
    this.capacity = maxOpenFiles == UNLIMITED ? Integer.MAX_VALUE : maxOpenFiles;
    this.blockCache = blockCache;
    this.counters = counters;
  }

  /**
   * How many tables one job may hold open at once and still leave the reads their share: half of
   * {@code maxOpenFiles}, or {@link Integer#MAX_VALUE} when it is unlimited.
   */
  public int openTablesPerJob() {
    return capacity == Integer.MAX_VALUE ? Integer.MAX_VALUE : Math.max(2, capacity / 2);
  }

  /** Leases the reader of a table not at level 0; see {@link #acquire(long, boolean)}. */
  public Handle acquire(long fileNumber) throws IOException {
    return acquire(fileNumber, false);
  }

  /**
   * Leases the reader of table {@code fileNumber}, opening it when it is not open; a level-0 table
   * ({@code levelZero}) opens with its filter chunks and index partitions pinned in the block cache
   * when the cache {@link #pinsLevelZeroMetadata}. They stay pinned while the reader is open: until
   * the table leaves every version (compacted away, or moved to a deeper level, which reopens it
   * unpinned) or the cache closes the reader to stay within {@code maxOpenFiles}.
   *
   * @throws CorruptionException when the table's footer, properties or index is damaged
   */
  public Handle acquire(long fileNumber, boolean levelZero) throws IOException {
    Handle h = open.get(fileNumber);
    if (h != null && h.tryLease()) {
      touch(h);
      return h;
    }
    List<Handle> evicted;
    lock.lock();
    try {
      h = open.get(fileNumber); // in the map under the lock: never CLOSED
      if (h != null && h.tryLease()) {
        touch(h);
        return h;
      }
      evicted = evictExcess(1);
      opening++;
    } finally {
      lock.unlock();
    }
    closeAll(evicted);
    Handle fresh = null;
    Handle winner;
    try {
      fresh = new Handle(fileNumber, openReader(fileNumber, levelZero && pinLevelZero));
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
          if (!winner.tryLease()) {
            throw new AssertionError("a reader in the map is closing: table " + fileNumber);
          }
          touch(winner);
        }
      } finally {
        lock.unlock();
      }
    }
    if (winner != fresh) {
      fresh.setClosed();
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

  /** Records a lease's time for the least-recently-used choice; unbounded, nothing is evicted. */
  private void touch(Handle h) {
    if (capacity != Integer.MAX_VALUE) {
      h.lastUse = System.nanoTime();
    }
  }

  /** Returns a lease; the reader may be closed now if it is dropped or the cache is over capacity. */
  public void release(Handle h) {
    int n = h.leases.decrementAndGet();
    if (n < 0 || n == Integer.MAX_VALUE) { // below zero, or below CLOSED
      h.leases.incrementAndGet();
      throw new IllegalStateException("lease returned twice: table " + h.fileNumber);
    }
    if (n > 0) {
      return;
    }
    afterLastHolder(h);
  }

  /**
   * Enters a Get on table {@code fileNumber}'s open reader without a lease (see the class comment),
   * or returns null when the reader is not open or is being closed: the caller then takes a lease
   * with {@link #acquire}. Leave with {@link #exitGet} on the same thread. The caller holds a
   * reference on the table; {@code fileNumber} is boxed once by it, so a Get boxes nothing.
   */
  public Handle enterGet(Long fileNumber) {
    Handle h = open.get(fileNumber);
    if (h == null) {
      return null;
    }
    if (h.gets.tryEnter()) {
      touch(h);
      return h;
    }
    if (h.dropped) {
      afterLastHolder(h); // a claim's scan may have seen this refused Get inside and given up
    }
    return null;
  }

  /** Leaves a Get entered by {@link #enterGet}; may close the reader, as {@link #release} may. */
  public void exitGet(Handle h) {
    h.gets.leave();
    if (h.dropped || capacity != Integer.MAX_VALUE) {
      afterLastHolder(h);
    }
  }

  /** A holder of {@code h} left: close it if it is dropped and unheld, or if over capacity. */
  private void afterLastHolder(Handle h) {
    if (h.dropped) {
      // Counted as leaving when it was dropped; whoever claims it closes it, and a read must not
      // wait on the deletion of its file.
      if (h.tryClose()) {
        closeAll(List.of(h), false);
      }
      return;
    }
    if (capacity == Integer.MAX_VALUE || openNow() <= capacity) {
      return;
    }
    List<Handle> toClose;
    lock.lock();
    try {
      toClose = evictExcess(0);
    } finally {
      lock.unlock();
    }
    closeAll(toClose);
  }

  /** Closes table {@code fileNumber}'s reader once no lease holds it: the table left every version. */
  public void drop(long fileNumber) {
    drop(fileNumber, null);
  }

  /**
   * As {@link #drop(long)}, and deletes {@code obsoleteFile} (unless null) when the reader is closed:
   * here if no lease or Get holds it, else on the deletes thread after its last holder closes it.
   * False when no reader is open, and the caller deletes the file. (A reader that an eviction is
   * closing at that moment is out of the map and not waited for: its file may then be unlinked
   * just before that close, which then frees it.)
   */
  private boolean drop(long fileNumber, Path obsoleteFile) {
    Handle h;
    lock.lock();
    try {
      h = open.remove(fileNumber);
      if (h == null) {
        return false;
      }
      leaving++;
      h.deleteAfterClose = obsoleteFile;
      h.dropped = true; // a lease out now (or taken from a lookup just before) closes it at its return
    } finally {
      lock.unlock();
    }
    if (h.tryClose()) {
      closeAll(List.of(h), true);
    }
    return true;
  }

  /**
   * Table {@code fileNumber} left the last version: drops its reader (see {@link #drop}) and deletes
   * {@code obsoleteFile} unless it is null (a trivially moved table keeps its file). Queued while the
   * current thread holds the database's mutex, for {@link #reclaimRetired}; otherwise handed, with
   * what is queued, to the deletes thread, so the read that let the table go does not wait on it.
   */
  public void retire(long fileNumber, Path obsoleteFile) {
    retired.add(new Retired(fileNumber, obsoleteFile));
    if (!underDeferringLock()) {
      deletes.run(this::reclaimRetired);
    }
  }

  /**
   * Reclaims the tables retired under the database's mutex: closes their readers and deletes their
   * obsolete files. The database calls it after releasing the mutex; never under it.
   */
  public void reclaimRetired() {
    assert !underDeferringLock() : "reclaiming tables under the database mutex";
    for (Retired r = retired.poll(); r != null; r = retired.poll()) {
      reclaim(r);
    }
  }

  /** Tables retired and not yet reclaimed; for tests. */
  int retiredCount() {
    return retired.size();
  }

  private boolean underDeferringLock() {
    return deferWhileHeld != null && deferWhileHeld.isHeldByCurrentThread();
  }

  private void reclaim(Retired r) {
    if (!drop(r.fileNumber(), r.obsoleteFile()) && r.obsoleteFile() != null) {
      delete(r.obsoleteFile());
    }
  }

  private static void delete(Path obsoleteFile) {
    try {
      Files.deleteIfExists(obsoleteFile);
    } catch (IOException e) {
      // The file is unreachable either way; a leftover is deleted by the next open's cleanup.
      LOG.log(System.Logger.Level.WARNING, "could not delete table " + obsoleteFile, e);
    }
  }

  /** Waits until everything handed to the deletes thread so far is done; for tests. */
  void awaitDeletes() throws InterruptedException {
    CountDownLatch done = new CountDownLatch(1);
    deletes.run(done::countDown);
    done.await();
  }

  /** The deletes thread, for tests that hold it busy. */
  BackgroundDeletes deletes() {
    return deletes;
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
   * Makes level-0 tables open with their filter chunks and index partitions pinned in the block
   * cache (RocksDB's {@code pin_l0_filter_and_index_blocks_in_cache}); readers open already keep
   * what they have.
   */
  public void pinsLevelZeroMetadata() {
    pinLevelZero = true;
  }

  /** Makes readers open from now on read their files as {@code options} say (direct reads or not). */
  public void readsWith(TableReadOptions options) {
    readOptions = options;
  }

  /** Readers open now, leased or not. */
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
    deletes.close(); // what reads handed it is done; from here on, deletes run on this thread
    reclaimRetired();
    List<Handle> all;
    lock.lock();
    try {
      all = new ArrayList<>(open.values());
      open.clear();
      leaving += all.size();
      for (Handle h : all) {
        h.setClosed(); // no read runs any more: every version is released
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
   * Takes least recently used, unleased readers out of the map until {@code extra} more fit under
   * the capacity (or none is left to take); the caller closes them outside the lock. Each pass
   * claims the oldest unleased reader (a scan: the bound is small, and this runs only over it).
   */
  @GuardedBy("lock")
  private List<Handle> evictExcess(int extra) {
    List<Handle> out = List.of();
    long excess = (long) openNow() + extra - capacity;
    while (excess > 0) {
      Handle oldest = null;
      for (Handle h : open.values()) {
        if (h.unheld() && (oldest == null || h.lastUse - oldest.lastUse < 0)) {
          oldest = h;
        }
      }
      if (oldest == null) {
        break; // every reader is leased
      }
      if (!oldest.tryClose()) {
        continue; // leased meanwhile: choose again
      }
      open.remove(oldest.fileNumber);
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
  private TableReader openReader(long fileNumber, boolean pinMetadata) throws IOException {
    boolean interrupted = Thread.interrupted();
    try {
      TableReader r = TableReader.open(
          FileNames.table(dir, fileNumber), fileNumber, blockCache, counters, pinMetadata, readOptions);
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

  /** {@link #closeAll(List, boolean)}, handing any deletion to the deletes thread. */
  private void closeAll(List<Handle> handles) {
    closeAll(handles, false);
  }

  /**
   * Closes readers already counted as leaving, outside the lock, then deletes the files of those
   * whose table was reclaimed while they were held: here when {@code deleteHere} (the caller is
   * reclaiming), else on the deletes thread.
   */
  private void closeAll(List<Handle> handles, boolean deleteHere) {
    if (handles.isEmpty()) {
      return;
    }
    assert !underDeferringLock() : "closing table readers under the database mutex";
    for (Handle h : handles) {
      pinnedBytes.add(-h.reader.pinnedBytes());
      try {
        h.reader.close();
      } catch (IOException e) {
        // A read-only file: nothing is lost; the descriptor is gone or goes with the channel.
        LOG.log(System.Logger.Level.WARNING, "could not close " + h.reader.path(), e);
      }
      Path obsolete = h.deleteAfterClose;
      if (obsolete != null) {
        if (deleteHere) {
          delete(obsolete);
        } else {
          deletes.run(() -> delete(obsolete));
        }
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
