package dev.strata.engine.read;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import java.util.Arrays;
import java.util.Comparator;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

final class CellOrderProperties {

  /**
   * The order is a stable sort by (row, column), unsigned, for batches built to hit every path: a
   * long shared prefix, heads equal in all but their low bits, rows that are prefixes of others or
   * end in zero bytes, bytes above 0x7f, duplicate cells, one sorter reused across batch sizes.
   */
  @Test
  void sort_isAStableSortByCell() {
    CellOrder sorter = new CellOrder();
    qt().withExamples(500)
        .forAll(longs().all())
        .checkAssert(
            seed -> {
              Random r = new Random(seed);
              int n = r.nextInt(4) == 0 ? r.nextInt(4) : r.nextInt(300);
              byte[] prefix = bytes(r, r.nextInt(12));
              byte[][] rows = new byte[n][];
              byte[][] columns = new byte[n][];
              for (int i = 0; i < n; i++) {
                if (i > 0 && r.nextInt(5) == 0) {
                  rows[i] = rows[r.nextInt(i)].clone(); // a duplicate row, perhaps the same cell
                } else {
                  byte[] tail = bytes(r, r.nextInt(r.nextBoolean() ? 3 : 12));
                  rows[i] = concat(r.nextInt(8) == 0 ? new byte[0] : prefix, tail);
                }
                columns[i] = bytes(r, r.nextInt(3));
              }
              int[] order = new int[n + r.nextInt(3)];
              sorter.sort(rows, columns, order);
              assertArrayEquals(expected(rows, columns), Arrays.copyOf(order, n), "seed " + seed);
            });
  }

  /** Bytes from a small alphabet (so heads tie often) that includes 0x00 and bytes above 0x7f. */
  private static byte[] bytes(Random r, int n) {
    byte[] alphabet = {0, 1, 2, 0x7f, (byte) 0x80, (byte) 0xff};
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = alphabet[r.nextInt(alphabet.length)];
    }
    return b;
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] c = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, c, a.length, b.length);
    return c;
  }

  /** A stable sort of the indices by (row, column) (List.sort is stable). */
  private static int[] expected(byte[][] rows, byte[][] columns) {
    Comparator<Integer> byCell =
        Comparator.<Integer, byte[]>comparing(i -> rows[i], Arrays::compareUnsigned)
            .thenComparing(i -> columns[i], Arrays::compareUnsigned);
    return IntStream.range(0, rows.length).boxed().sorted(byCell).mapToInt(Integer::intValue).toArray();
  }
}
