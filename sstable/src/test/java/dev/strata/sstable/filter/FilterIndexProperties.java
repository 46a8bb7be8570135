package dev.strata.sstable.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;

import dev.strata.sstable.block.BlockHandle;
import dev.strata.sstable.key.KeyCodec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;
import org.quicktheories.generators.SourceDSL;

/**
 * {@link FilterIndex#find} returns the first chunk whose last key is at or after the key, as a scan
 * of the keys does, whether the rows' 8-byte prefixes tell them apart or tie (rows sharing long
 * prefixes, rows shorter than 8 bytes, columns that alone decide).
 */
final class FilterIndexProperties {

  /** Rows of 0 to 12 bytes over three byte values: prefixes tie often. */
  private static Gen<byte[]> rows() {
    return Generate.byteArrays(Generate.range(0, 12), Generate.pick(List.of((byte) 0, (byte) 7, (byte) -1)));
  }

  /**
   * Rows of which most start with one prefix of 0 to 10 bytes (so the last keys share a prefix, as
   * real rows do), some shorter or differing inside it.
   */
  private static Gen<byte[]> prefixedRows(byte[] prefix) {
    return rows().zip(Generate.range(0, 4), (tail, how) -> {
      int keep = how == 0 ? tail.length % (prefix.length + 1) : prefix.length; // sometimes cut short
      byte[] r = java.util.Arrays.copyOf(prefix, keep + tail.length);
      System.arraycopy(tail, 0, r, keep, tail.length);
      return r;
    });
  }

  private static Gen<byte[]> columns() {
    return Generate.byteArrays(Generate.range(0, 2), Generate.pick(List.of((byte) 0, (byte) 7)));
  }

  private static Gen<byte[]> cellKeys() {
    return cellKeys(rows());
  }

  private static Gen<byte[]> cellKeys(Gen<byte[]> rows) {
    return rows.zip(columns(), (r, c) -> {
      byte[] k = new byte[KeyCodec.cellKeyLength(r, c)];
      KeyCodec.encodeCellKey(r, c, k, 0);
      return k;
    });
  }

  private static byte[] row(byte[] cellKey) {
    return java.util.Arrays.copyOfRange(cellKey, 2, 2 + dev.strata.sstable.format.Bytes.getU16(cellKey, 0));
  }

  private static byte[] column(byte[] cellKey) {
    return java.util.Arrays.copyOfRange(cellKey, 2 + row(cellKey).length, cellKey.length);
  }

  private static int compare(byte[] a, byte[] b) {
    return KeyCodec.compareCell(row(a), column(a), b, 0, b.length);
  }

  @Test
  void find_isTheFirstChunkEndingAtOrAfterTheKey() {
    qt().withExamples(1000)
        .forAll(SourceDSL.lists().of(cellKeys()).ofSizeBetween(1, 40), cellKeys(), Generate.range(0, 40))
        .checkAssert(FilterIndexProperties::checkFind);
  }

  /** As above, with last keys whose rows share a prefix of up to 10 bytes, and keys with or without it. */
  @Test
  void find_withASharedPrefix_isTheFirstChunkEndingAtOrAfterTheKey() {
    for (byte[] prefix : List.of(new byte[] {7}, new byte[] {0, 7, -1, 7}, new byte[] {7, 7, 7, 7, 7, 7, 7, 7, 0, -1})) {
      qt().withExamples(500)
          .forAll(SourceDSL.lists().of(cellKeys(prefixedRows(prefix))).ofSizeBetween(1, 40),
              cellKeys(prefixedRows(prefix)), Generate.range(0, 40))
          .checkAssert(FilterIndexProperties::checkFind);
    }
  }

  /** {@link FilterIndex#findAll} of ascending keys answers {@link FilterIndex#find} of each. */
  @Test
  void findAll_isFindOfEachKey() {
    byte[] prefix = {7, 0, 7, -1, 7, 7};
    qt().withExamples(1000)
        .forAll(SourceDSL.lists().of(cellKeys(prefixedRows(prefix))).ofSizeBetween(1, 40),
            SourceDSL.lists().of(cellKeys(prefixedRows(prefix))).ofSizeBetween(0, 40), Generate.booleans())
        .checkAssert((keys, probeKeys, rowsOnly) -> {
          FilterIndex index = index(keys);
          List<byte[]> sorted = new ArrayList<>(probeKeys);
          sorted.sort(FilterIndexProperties::compare);
          FilterProbe[] probes = new FilterProbe[sorted.size()];
          for (int i = 0; i < probes.length; i++) {
            probes[i] = FilterProbe.of(row(sorted.get(i)), column(sorted.get(i)));
          }
          // A run inside the arrays, as a table of a level takes its run of the batch's probes.
          int from = probes.length / 3;
          int[] chunks = new int[probes.length + 1];
          Arrays.fill(chunks, 12345);
          index.findAll(probes, from, probes.length, rowsOnly, chunks);
          for (int i = 0; i < from; i++) {
            assertEquals(12345, chunks[i], "before the run: left alone");
          }
          assertEquals(12345, chunks[probes.length], "past the run: left alone");
          for (int i = from; i < probes.length; i++) {
            byte[] column = rowsOnly ? new byte[0] : probes[i].column();
            assertEquals(index.find(probes[i].row(), column), chunks[i], "probe " + i);
          }
        });
  }

  private static FilterIndex index(List<byte[]> keys) {
    TreeSet<byte[]> sorted = new TreeSet<>(FilterIndexProperties::compare);
    sorted.addAll(keys);
    List<byte[]> last = new ArrayList<>(sorted);
    BlockHandle[] handles = new BlockHandle[last.size()];
    for (int i = 0; i < handles.length; i++) {
      handles[i] = new BlockHandle(100L * i, 10);
    }
    return new FilterIndex(last.toArray(new byte[0][]), handles);
  }

  private static void checkFind(List<byte[]> keys, byte[] probe, int fromSeed) {
    TreeSet<byte[]> sorted = new TreeSet<>(FilterIndexProperties::compare);
    sorted.addAll(keys);
    List<byte[]> last = new ArrayList<>(sorted);
    FilterIndex index = index(keys);
    int expected = -1;
    for (int i = 0; i < last.size(); i++) {
      if (compare(probe, last.get(i)) <= 0) {
        expected = i;
        break;
      }
    }
    assertEquals(expected, index.find(row(probe), column(probe)));
    int from = expected < 0 ? 0 : fromSeed % (expected + 1); // any chunk at or before the answer
    assertEquals(expected, index.find(row(probe), column(probe), from), "from " + from);
  }
}
