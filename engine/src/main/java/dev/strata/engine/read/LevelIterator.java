package dev.strata.engine.read;

import dev.strata.engine.version.TableRef;
import dev.strata.sstable.key.InternalKey;
import java.io.IOException;
import java.util.List;

/**
 * The entries of one level deeper than 0 as one iterator (LevelDB's concatenating iterator): its
 * tables are disjoint and sorted, so their entries in table order are already in order, and only the
 * table under the cursor needs to be open. It moves both ways, stepping into the previous table
 * (positioned at its last entry) when the current one is exhausted backwards. A scan or compaction over thousands of tables so leases
 * one reader per deeper level from the table cache, not one per table.
 *
 * <p>Not thread-safe: an iterator belongs to one thread. The caller keeps the tables referenced
 * (through a version) for the iterator's life.
 */
public final class LevelIterator implements InternalIterator {

  /** Opens the iterator of one table: a read-path or a compaction iterator. */
  @FunctionalInterface
  public interface Opener {
    InternalIterator open(TableRef table) throws IOException;
  }

  private final List<TableRef> tables;
  private final Opener opener;
  private int index = -1;
  private InternalIterator current;

  /**
   * @param tables the tables of one level deeper than 0, sorted by smallest key and disjoint
   */
  public LevelIterator(List<TableRef> tables, Opener opener) {
    this.tables = List.copyOf(tables);
    this.opener = opener;
  }

  @Override
  public void seekToFirst() throws IOException {
    if (moveTo(0)) {
      current.seekToFirst();
      skipExhaustedTables();
    }
  }

  @Override
  public void seekToLast() throws IOException {
    if (moveTo(tables.size() - 1)) {
      current.seekToLast();
      skipExhaustedTablesBackward();
    }
  }

  @Override
  public void seek(InternalKey target) throws IOException {
    // The first table whose largest key is at or after the target holds the first entry >= target.
    int lo = 0;
    int hi = tables.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (InternalKey.compare(tables.get(mid).metadata().largest(), target) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    if (moveTo(lo)) {
      current.seek(target);
      skipExhaustedTables();
    }
  }

  @Override
  public boolean isValid() {
    return current != null && current.isValid();
  }

  @Override
  public void next() throws IOException {
    current.next();
    skipExhaustedTables();
  }

  @Override
  public void prev() throws IOException {
    current.prev();
    skipExhaustedTablesBackward();
  }

  @Override
  public InternalKey key() {
    return current.key();
  }

  @Override
  public byte[] value() {
    return current.value();
  }

  @Override
  public byte[] encodedKey() {
    return current.encodedKey();
  }

  @Override
  public int encodedKeyLength() {
    return current.encodedKeyLength();
  }

  @Override
  public byte[] valueArray() {
    return current.valueArray();
  }

  @Override
  public int valueOffset() {
    return current.valueOffset();
  }

  @Override
  public int valueLength() {
    return current.valueLength();
  }

  /** True: the opener opens tables' iterators, whose views are their blocks' bytes. */
  @Override
  public boolean hasEncodedViews() {
    return true;
  }

  @Override
  public void close() {
    closeCurrent();
    index = tables.size();
  }

  /** Steps into following tables while the current one is exhausted. */
  private void skipExhaustedTables() throws IOException {
    while (current != null && !current.isValid()) {
      if (moveTo(index + 1)) {
        current.seekToFirst();
      }
    }
  }

  /** Steps into preceding tables while the current one is exhausted. */
  private void skipExhaustedTablesBackward() throws IOException {
    while (current != null && !current.isValid()) {
      if (moveTo(index - 1)) {
        current.seekToLast();
      }
    }
  }

  /**
   * Opens table {@code i} in place of the current one; false (and no table) before the first or
   * past the last.
   */
  private boolean moveTo(int i) throws IOException {
    if (i == index && current != null) {
      return true;
    }
    closeCurrent(); // its lease goes back before the next table's is taken
    index = i;
    if (i < 0 || i >= tables.size()) {
      return false;
    }
    current = opener.open(tables.get(i));
    return true;
  }

  private void closeCurrent() {
    if (current != null) {
      current.close();
      current = null;
    }
  }
}
