package dev.strata.engine.read;

import dev.strata.engine.memtable.MemTable;
import dev.strata.engine.version.ReadView;
import dev.strata.engine.version.TableRef;
import dev.strata.sstable.FilterProbe;
import dev.strata.sstable.GetResult;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Many point reads at one snapshot, answered together (RocksDB's MultiGet): the same answers as
 * {@link ReadPath#get} for each key, with the work shared.
 *
 * <ol>
 *   <li>The keys are sorted by (row, column) once, and each gets one {@link FilterProbe}: hashed
 *       once, probed in every table.
 *   <li>The memtables answer what they can, newest first, as for a Get.
 *   <li>The tables are visited in the read path's order (level 0 newest first, then each deeper
 *       level), which for every key is the order of the tables that may hold it. Each table takes
 *       the keys still undecided whose row it covers, asks its filter for all of them before it
 *       reads any block, and then reads each data block it needs once for all the keys in it
 *       ({@link dev.strata.sstable.TableReader#getAll}).
 * </ol>
 *
 * <p>Thread-safe (stateless); the caller holds a reference on the view.
 */
public final class BatchedGets {
  private BatchedGets() {}

  /**
   * The values of cells (rows[i], columns[i]) as of {@code snapshot}, aligned with the input; null
   * where absent or deleted.
   */
  public static byte[][] get(ReadView view, long snapshot, byte[][] rows, byte[][] columns)
      throws IOException {
    int n = rows.length;
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> compareCells(rows[a], columns[a], rows[b], columns[b]));
    byte[][] out = new byte[n][];
    List<Integer> pending = new ArrayList<>(n);
    for (int i : order) {
      Verdict v = Verdict.UNKNOWN;
      GetResult r = null;
      for (int m = -1; v == Verdict.UNKNOWN && m < view.frozen().size(); m++) {
        MemTable mem = m < 0 ? view.mutable() : view.frozen().get(m);
        r = mem.get(rows[i], columns[i], snapshot);
        v = Verdict.of(r);
      }
      if (v == Verdict.UNKNOWN) {
        pending.add(i);
      } else if (v == Verdict.FOUND) {
        out[i] = r.value().clone(); // memtable values are shared with the memtable
      }
    }
    FilterProbe[] probes = new FilterProbe[n];
    for (int i : pending) {
      probes[i] = FilterProbe.of(rows[i], columns[i]);
    }
    for (TableRef t : view.version().allTables()) {
      if (pending.isEmpty()) {
        break;
      }
      List<Integer> covered = new ArrayList<>();
      List<FilterProbe> batch = new ArrayList<>();
      for (int i : pending) {
        if (t.metadata().coversRow(rows[i])) {
          covered.add(i);
          batch.add(probes[i]);
        }
      }
      if (covered.isEmpty()) {
        continue;
      }
      GetResult[] results = t.getAll(batch, snapshot);
      List<Integer> stillPending = new ArrayList<>(pending.size());
      int c = 0;
      for (int i : pending) {
        if (c < covered.size() && covered.get(c) == i) {
          Verdict v = Verdict.of(results[c++]);
          if (v == Verdict.FOUND) {
            out[i] = results[c - 1].value(); // a fresh copy from the block
          } else if (v == Verdict.UNKNOWN) {
            stillPending.add(i);
          }
        } else {
          stillPending.add(i);
        }
      }
      pending = stillPending;
    }
    return out;
  }

  private static int compareCells(byte[] rowA, byte[] columnA, byte[] rowB, byte[] columnB) {
    int c = Arrays.compareUnsigned(rowA, rowB);
    return c != 0 ? c : Arrays.compareUnsigned(columnA, columnB);
  }
}
