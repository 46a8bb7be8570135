package dev.strata.engine.version;

import dev.strata.engine.CorruptionException;
import dev.strata.engine.fs.FileNames;
import dev.strata.engine.manifest.FileMetadata;
import dev.strata.engine.read.InternalIterator;
import dev.strata.sstable.BlockCache;
import dev.strata.sstable.CorruptTableException;
import dev.strata.sstable.FilterProbe;
import dev.strata.sstable.FilterType;
import dev.strata.sstable.GetResult;
import dev.strata.sstable.InternalKey;
import dev.strata.sstable.ReadCounters;
import dev.strata.sstable.TableIterator;
import dev.strata.sstable.TableProperties;
import dev.strata.sstable.TableReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One live table: its manifest entry and its open reader, shared by every {@link Version} that lists
 * it, reference-counted. Each version holding the table holds one reference; when the last is
 * released the reader is closed, and the file deleted if compaction has made it obsolete. So a
 * table leaves the disk only after no Get or scan can still reach it.
 *
 * <p>It is also the one place where the engine reads tables, so it is where the sstable module's
 * {@link CorruptTableException} becomes the public {@link CorruptionException}.
 *
 * <p>Thread-safe.
 */
public final class TableRef {
  private static final System.Logger LOG = System.getLogger(TableRef.class.getName());

  private final FileMetadata metadata;
  private final TableReader reader;
  private final RefCount refs = new RefCount(this);
  private volatile boolean obsolete;

  private TableRef(FileMetadata metadata, TableReader reader) {
    this.metadata = metadata;
    this.reader = reader;
  }

  /** Opens the table's file with one reference held by the caller. */
  public static TableRef open(Path file, FileMetadata metadata, BlockCache cache, ReadCounters counters)
      throws IOException {
    try {
      return new TableRef(metadata, TableReader.open(file, metadata.fileNumber(), cache, counters));
    } catch (CorruptTableException e) {
      throw translate(e);
    }
  }

  /**
   * Opens the tables of {@code files} in {@code dir}, in order, with one reference each held by the
   * caller; when one fails, those already open are released.
   */
  public static List<TableRef> openAll(
      Path dir, List<FileMetadata> files, BlockCache cache, ReadCounters counters)
      throws IOException {
    List<TableRef> refs = new ArrayList<>(files.size());
    boolean ok = false;
    try {
      for (FileMetadata f : files) {
        refs.add(open(FileNames.table(dir, f.fileNumber()), f, cache, counters));
      }
      ok = true;
      return refs;
    } finally {
      if (!ok) {
        refs.forEach(TableRef::release);
      }
    }
  }

  /** The table's manifest entry. */
  public FileMetadata metadata() {
    return metadata;
  }

  /** The open reader; for tools and stats. Reads go through the methods below. */
  public TableReader reader() {
    return reader;
  }

  /**
   * Bytes of filter in the file; 0 for a table without a filter, whose properties still count the
   * few bytes of its empty filter index (DbStats.filterBytesOnDisk is 0 under BloomType.NONE).
   */
  public long filterBytes() {
    TableProperties p = reader.properties();
    return p.filterType() == FilterType.NONE ? 0 : p.filterBytes();
  }

  /** Bytes of the index in the file, trailer included. */
  public long indexBytes() {
    return reader.properties().indexBytes();
  }

  /** See {@link TableReader#get}. */
  public GetResult get(FilterProbe probe, long snapshot) throws IOException {
    try {
      return reader.get(probe, snapshot);
    } catch (CorruptTableException e) {
      throw translate(e);
    }
  }

  /** See {@link TableReader#getAll}. */
  public GetResult[] getAll(List<FilterProbe> probes, long snapshot) throws IOException {
    try {
      return reader.getAll(probes, snapshot);
    } catch (CorruptTableException e) {
      throw translate(e);
    }
  }

  /** See {@link TableReader#mayContain}. */
  public boolean mayContain(FilterProbe probe) throws IOException {
    try {
      return reader.mayContain(probe);
    } catch (CorruptTableException e) {
      throw translate(e);
    }
  }

  /** See {@link TableReader#rowRangeMeetsPrefix}. */
  public boolean rowRangeMeetsPrefix(byte[] prefix) {
    return reader.rowRangeMeetsPrefix(prefix);
  }

  /** See {@link TableReader#prefixFilterExcludes}. */
  public boolean prefixFilterExcludes(byte[] prefix) throws IOException {
    try {
      return reader.prefixFilterExcludes(prefix);
    } catch (CorruptTableException e) {
      throw translate(e);
    }
  }

  /** See {@link TableReader#mightContainRow}. */
  public boolean mightContainRow(FilterProbe probe) throws IOException {
    try {
      return reader.mightContainRow(probe);
    } catch (CorruptTableException e) {
      throw translate(e);
    }
  }

  /** An iterator over the table's entries; the caller holds a reference for its lifetime. */
  public InternalIterator iterator() {
    return new Iterator(reader.iterator(), null);
  }

  /**
   * An iterator over the table through a reader of its own, counting into {@code counters} and
   * caching in {@code cache}: compaction reads this way so it neither evicts the read path's blocks
   * nor shows up in its counters. Closing the iterator closes that reader; the caller holds a
   * reference on this table meanwhile.
   */
  public InternalIterator isolatedIterator(BlockCache cache, ReadCounters counters)
      throws IOException {
    TableReader own;
    try {
      own = TableReader.open(reader.path(), metadata.fileNumber(), cache, counters);
    } catch (CorruptTableException e) {
      throw translate(e);
    }
    return new Iterator(own.iterator(), own);
  }

  /** Marks the file for deletion once the last reference is gone. */
  public void markObsolete() {
    obsolete = true;
  }

  /** Takes one more reference. */
  public void acquire() {
    refs.acquire();
  }

  /** Drops one reference; the last closes the reader and deletes an obsolete file. */
  public void release() {
    if (!refs.release()) {
      return;
    }
    try {
      reader.close();
      if (obsolete) {
        Files.deleteIfExists(reader.path());
      }
    } catch (IOException e) {
      // The file is unreachable either way; a leftover is deleted by the next open's cleanup.
      LOG.log(System.Logger.Level.WARNING, "could not release table " + reader.path(), e);
    }
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

  /** Adapts the table's iterator, translating its corruption reports. */
  private static final class Iterator implements InternalIterator {
    private final TableIterator it;
    /** A reader this iterator owns and closes, or null. */
    private final TableReader owned;

    Iterator(TableIterator it, TableReader owned) {
      this.it = it;
      this.owned = owned;
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
    public void close() {
      it.close();
      if (owned != null) {
        try {
          owned.close();
        } catch (IOException e) {
          // A read-only channel: nothing was lost, only a descriptor may linger until GC.
          LOG.log(System.Logger.Level.WARNING, "could not close " + owned.path(), e);
        }
      }
    }
  }
}
