package dev.strata.engine.version;

import dev.strata.engine.CorruptionException;
import dev.strata.engine.fs.FileNames;
import dev.strata.engine.manifest.FileMetadata;
import dev.strata.engine.read.InternalIterator;
import dev.strata.sstable.CellLookup;
import dev.strata.sstable.GetResult;
import dev.strata.sstable.ReadCounters;
import dev.strata.sstable.TableIterator;
import dev.strata.sstable.TableProperties;
import dev.strata.sstable.TableReader;
import dev.strata.sstable.filter.FilterProbe;
import dev.strata.sstable.filter.FilterType;
import dev.strata.sstable.format.CorruptTableException;
import dev.strata.sstable.key.InternalKey;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One live table: its manifest entry, shared by every {@link Version} that lists it,
 * reference-counted. Each version holding the table holds one reference; when the last is released
 * the table goes to {@link ObsoleteFiles}: its reader leaves the {@link TableCache} (closed once no
 * read still holds it), and the file is deleted if compaction has made it obsolete. So a table leaves the disk only after no
 * Get or scan can still reach it.
 *
 * <p>It holds no open file itself: every read holds the reader from the table cache for as long as
 * it needs it, so at most {@code maxOpenFiles} tables are open however many are live.
 *
 * <p>It is also the one place where the engine reads tables, so it is where the sstable module's
 * {@link CorruptTableException} becomes the public {@link CorruptionException}.
 *
 * <p>Thread-safe.
 */
public final class TableRef {

  private final FileMetadata metadata;
  private final TableCache tables;
  /** Where the table goes when the last version listing it is released. */
  private final ObsoleteFiles obsolete;
  private final Path path;
  private final RefCount refs = new RefCount(this);
  /** The file number boxed once: the table cache's key, looked up by every Get. */
  private final Long fileKey;
  /**
   * The file behind this entry, shared with every entry a trivial move made of it: versions from
   * before a move list the file under the old entry, versions after it under the new one, so the
   * file may go only when the last entry of either kind does.
   */
  private final TableFileLife file;

  private TableRef(
      FileMetadata metadata,
      TableCache tables,
      ObsoleteFiles obsolete,
      Path path,
      TableFileLife file) {
    this.metadata = metadata;
    this.tables = tables;
    this.obsolete = obsolete;
    this.path = path;
    this.file = file;
    this.fileKey = metadata.fileNumber();
  }

  /** How many entries list one file, and whether compaction has made it obsolete. */
  private static final class TableFileLife {
    private final RefCount entries;
    private volatile boolean obsolete;

    TableFileLife(Path path) {
      entries = new RefCount(path);
    }
  }

  /**
   * The table of {@code metadata} in {@code dir}, with one reference held by the caller. The table
   * is not opened: the manifest entry says all a version needs to place it, and the table cache
   * opens it (ahead of reads at {@code Db.open}, else for the first read that needs it). Only an entry of a version-1 manifest, which did not record the
   * filter size, is opened once now to learn it.
   *
   * @throws CorruptionException when such a table's footer, properties or index is damaged
   */
  public static TableRef open(
      Path dir, FileMetadata metadata, TableCache tables, ObsoleteFiles obsolete)
      throws IOException {
    FileMetadata m = metadata;
    if (m.filterBytes() == FileMetadata.UNKNOWN_FILTER_BYTES) {
      TableHandle h = hold(tables, m);
      try {
        TableProperties p = h.reader().properties();
        m = m.withFilterBytes(p.filterType() == FilterType.NONE ? 0 : p.filterBytes());
      } finally {
        tables.release(h);
      }
    }
    Path path = FileNames.table(dir, m.fileNumber());
    return new TableRef(m, tables, obsolete, path, new TableFileLife(path));
  }

  /**
   * Opens the tables of {@code files} in {@code dir}, in order and one at a time, with one reference
   * each held by the caller; when one fails, those already open are released.
   */
  public static List<TableRef> openAll(
      Path dir, List<FileMetadata> files, TableCache tables, ObsoleteFiles obsolete)
      throws IOException {
    List<TableRef> refs = new ArrayList<>(files.size());
    boolean ok = false;
    try {
      for (FileMetadata f : files) {
        refs.add(open(dir, f, tables, obsolete));
      }
      ok = true;
      return refs;
    } finally {
      if (!ok) {
        refs.forEach(TableRef::release);
      }
    }
  }

  /**
   * The same file listed under {@code metadata} (a trivial move), with one reference. The file
   * stays while either entry is referenced.
   */
  public TableRef relisted(FileMetadata moved) {
    if (moved.fileNumber() != metadata.fileNumber()) {
      throw new IllegalArgumentException("not the same file: " + moved + " for " + metadata);
    }
    file.entries.acquire();
    return new TableRef(moved, tables, obsolete, path, file);
  }

  /** The table's manifest entry. */
  public FileMetadata metadata() {
    return metadata;
  }

  /**
   * Bytes of filter in the file; 0 for a table without a filter, whose properties still count the
   * few bytes of its empty filter index (DbStats.filterBytesOnDisk is 0 under BloomType.NONE).
   */
  public long filterBytes() {
    return metadata.filterBytes();
  }

  /**
   * Bytes of the index in the file, trailer included. The manifest does not carry this figure, so
   * it holds the table's reader (opening it if the table cache had closed it).
   */
  public long indexBytes() throws IOException {
    return withReader(r -> r.properties().indexBytes());
  }

  /**
   * See {@link TableReader#get(FilterProbe, long, CellLookup)}. Written out rather than through
   * {@link #withReader}: the lambda capturing the probe and snapshot would be an allocation per
   * table per Get. Holding an open reader writes only a line of this thread's ({@link TableCache}).
   */
  public void get(FilterProbe probe, long snapshot, CellLookup out) throws IOException {
    TableHandle h = tables.acquire(fileKey, metadata.level() == 0);
    try {
      h.reader().get(probe, snapshot, out);
    } catch (CorruptTableException e) {
      throw translate(e);
    } finally {
      tables.release(h);
    }
  }

  /** {@link #get(FilterProbe, long, CellLookup)} as a result object. */
  public GetResult get(FilterProbe probe, long snapshot) throws IOException {
    CellLookup out = new CellLookup();
    get(probe, snapshot, out);
    return out.toResult(probe.row(), probe.column());
  }

  /** See {@link TableReader#getAll}. */
  public void getAll(FilterProbe[] probes, int count, long snapshot, CellLookup[] out)
      throws IOException {
    withReader(r -> {
      r.getAll(probes, count, snapshot, out);
      return null;
    });
  }

  /**
   * {@link TableReader#getAll(TableReader[], int[], int, FilterProbe[], int, long, CellLookup[])}:
   * tables {@code refs[0, n)} answer their runs of the probes together (the runs end at {@code
   * ends[0, n)}), each table's reader held for the call; damage becomes a CorruptionException.
   * For the tables of one level below level 0, which are disjoint.
   */
  public static void getAll(TableRef[] refs, int[] ends, int n, FilterProbe[] probes, int count,
      long snapshot, CellLookup[] out) throws IOException {
    TableHandle[] held = new TableHandle[n];
    TableReader[] readers = new TableReader[n];
    try {
      for (int t = 0; t < n; t++) {
        TableRef ref = refs[t];
        held[t] = hold(ref.tables, ref.metadata);
        readers[t] = held[t].reader();
      }
      TableReader.getAll(readers, ends, n, probes, count, snapshot, out);
    } catch (CorruptTableException e) {
      throw translate(e);
    } finally {
      for (int t = 0; t < n && held[t] != null; t++) {
        refs[t].tables.release(held[t]);
      }
    }
  }

  /** See {@link TableReader#mayContain}. */
  public boolean mayContain(FilterProbe probe) throws IOException {
    return withReader(r -> r.mayContain(probe));
  }

  /** See {@link TableReader#rowRangeMeetsPrefix}. */
  public boolean rowRangeMeetsPrefix(byte[] prefix) {
    return TableReader.rowRangeMeetsPrefix(
        metadata.smallest().row(), metadata.largest().row(), prefix);
  }

  /** See {@link TableReader#prefixFilterExcludes}. */
  public boolean prefixFilterExcludes(byte[] prefix) throws IOException {
    return withReader(r -> r.prefixFilterExcludes(prefix));
  }

  /** See {@link TableReader#mightContainRow}. */
  public boolean mightContainRow(FilterProbe probe) throws IOException {
    return withReader(r -> r.mightContainRow(probe));
  }

  /**
   * Table {@code m}'s reader, held from {@code tables} until released; a level-0 table's with its
   * metadata pinned ({@link TableCache#acquire(Long, boolean)}).
   */
  private static TableHandle hold(TableCache tables, FileMetadata m) throws IOException {
    return tables.acquire(m.fileNumber(), m.level() == 0);
  }

  /** One call on the table's reader, held for the call; damage becomes a CorruptionException. */
  private <T> T withReader(ReaderCall<T> call) throws IOException {
    TableHandle h = hold(tables, metadata);
    try {
      return call.on(h.reader());
    } catch (CorruptTableException e) {
      throw translate(e);
    } finally {
      tables.release(h);
    }
  }

  @FunctionalInterface
  private interface ReaderCall<T> {
    T on(TableReader reader) throws IOException;
  }

  /**
   * An iterator over the table's entries, holding the table's reader until closed; the
   * caller holds a reference on this table meanwhile.
   */
  public InternalIterator iterator() throws IOException {
    return heldIterator(null);
  }

  /**
   * An iterator for compaction through the same held reader: its data blocks bypass the block
   * cache (see {@link TableReader#bulkIterator}) and count into {@code counters}, so compaction
   * neither evicts the read path's blocks nor shows up in its counters.
   */
  public InternalIterator bulkIterator(ReadCounters counters) throws IOException {
    return heldIterator(Objects.requireNonNull(counters, "counters"));
  }

  private InternalIterator heldIterator(ReadCounters bulk) throws IOException {
    TableHandle h = hold(tables, metadata);
    try {
      TableReader r = h.reader();
      return new Iterator(bulk == null ? r.iterator() : r.bulkIterator(bulk), h);
    } catch (RuntimeException e) {
      tables.release(h);
      throw e;
    }
  }

  /** Marks the file for deletion once the last reference to any entry of it is gone. */
  public void markObsolete() {
    file.obsolete = true;
  }

  /** Takes one more reference. */
  public void acquire() {
    refs.acquire();
  }

  /**
   * Drops one reference; the last retires the table ({@link ObsoleteFiles#retire}), which closes its
   * reader and deletes an obsolete file (later, when this runs under the database's mutex). No read
   * can reach it then: every read holds a version that holds a reference.
   */
  public void release() {
    if (!refs.release()) {
      return;
    }
    // The reader goes with any entry (a moved table reopens under its new level's settings, such
    // as unpinned metadata); the file only with the last entry.
    boolean lastEntry = file.entries.release();
    obsolete.retire(metadata.fileNumber(), lastEntry && file.obsolete ? path : null);
  }

  /** References held now; for invariant checks. */
  int refCount() {
    return refs.get();
  }

  @Override
  public String toString() {
    return "TableRef[" + metadata.fileNumber() + "@L" + metadata.level() + ", refs=" + refs.get() + "]";
  }

  static CorruptionException translate(CorruptTableException e) {
    return new CorruptionException(e.getMessage(), e);
  }

  /** Adapts the table's iterator, translating its corruption reports; gives the reader back on close. */
  private final class Iterator implements InternalIterator {
    private final TableIterator it;
    private TableHandle held;

    Iterator(TableIterator it, TableHandle held) {
      this.it = it;
      this.held = held;
    }

    @Override
    public void seekToFirst() throws IOException {
      try {
        it.seekToFirst();
      } catch (CorruptTableException e) {
        throw translate(e);
      }
    }

    @Override
    public void seekToLast() throws IOException {
      try {
        it.seekToLast();
      } catch (CorruptTableException e) {
        throw translate(e);
      }
    }

    @Override
    public void seek(InternalKey target) throws IOException {
      try {
        it.seek(target);
      } catch (CorruptTableException e) {
        throw translate(e);
      }
    }

    @Override
    public boolean isValid() {
      return it.isValid();
    }

    @Override
    public void next() throws IOException {
      try {
        it.next();
      } catch (CorruptTableException e) {
        throw translate(e);
      }
    }

    @Override
    public void prev() throws IOException {
      try {
        it.prev();
      } catch (CorruptTableException e) {
        throw translate(e);
      }
    }

    @Override
    public InternalKey key() {
      return it.key();
    }

    @Override
    public byte[] value() {
      return it.value();
    }

    @Override
    public byte[] encodedKey() {
      return it.encodedKey();
    }

    @Override
    public int encodedKeyLength() {
      return it.encodedKeyLength();
    }

    @Override
    public byte[] valueArray() {
      return it.valueArray();
    }

    @Override
    public int valueOffset() {
      return it.valueOffset();
    }

    @Override
    public int valueLength() {
      return it.valueLength();
    }

    @Override
    public boolean hasEncodedViews() {
      return true;
    }

    @Override
    public void close() {
      it.close();
      if (held != null) {
        tables.release(held);
        held = null;
      }
    }
  }
}
