package dev.strata.engine.read;

import dev.strata.engine.version.ReadView;
import dev.strata.engine.version.TableRef;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * Which sources a prefix scan reads, and its counters. A scan of the rows starting with a prefix
 * reads every memtable, and of the tables only those whose row range meets the prefix and whose
 * prefix filter (when the table has one, and the prefix is at least its length) does not exclude it:
 * the Get's filter skip, applied to a range of rows that share their first bytes.
 *
 * <p>Thread-safe.
 */
public final class PrefixScans {
  private final LongAdder scans = new LongAdder();
  private final LongAdder tablesConsulted = new LongAdder();
  private final LongAdder tablesSkipped = new LongAdder();

  /**
   * Iterators over the memtables and the tables that may hold a row starting with {@code prefix},
   * counting one scan, the tables whose range met the prefix, and those the filter skipped.
   */
  public List<InternalIterator> sources(ReadView view, byte[] prefix) throws IOException {
    scans.increment();
    List<InternalIterator> sources = ReadPath.memTableSources(view);
    boolean ok = false;
    try {
      int levelZero = 0; // level-0 tables the scan positions on: see WastedReads
      for (TableRef t : view.version().allTables()) {
        if (!t.rowRangeMeetsPrefix(prefix)) {
          continue;
        }
        tablesConsulted.increment();
        if (t.prefixFilterExcludes(prefix)) {
          tablesSkipped.increment();
        } else {
          sources.add(t.iterator());
          levelZero += t.metadata().level() == 0 ? 1 : 0;
        }
      }
      view.levelZeroReads().charge(levelZero);
      ok = true;
      return sources;
    } finally {
      if (!ok) {
        sources.forEach(InternalIterator::close);
      }
    }
  }

  /**
   * The first row after every row that starts with {@code prefix}, or null when there is none (the
   * prefix is empty or all 0xff bytes): the exclusive end of a prefix scan.
   */
  public static byte[] end(byte[] prefix) {
    int n = prefix.length;
    while (n > 0 && prefix[n - 1] == (byte) 0xff) {
      n--;
    }
    if (n == 0) {
      return null;
    }
    byte[] end = Arrays.copyOf(prefix, n);
    end[n - 1]++;
    return end;
  }

  /** Prefix scans opened. */
  public long scans() {
    return scans.sum();
  }

  /** Tables whose row range met a scan's prefix, summed over scans. */
  public long tablesConsulted() {
    return tablesConsulted.sum();
  }

  /** Of those, the tables whose prefix filter said no row starts with the prefix. */
  public long tablesSkipped() {
    return tablesSkipped.sum();
  }
}
