package dev.strata.sstable.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A {@link FilterKeys.RowHasher} gives the hash {@link FilterKeys#rowHash} gives, which the tables'
 * filters and every probe use: for rows shorter and longer than its first buffer, in any order.
 */
final class RowHasherTest {
  @Test
  void hashesEveryRowAsRowHashDoes_acrossBufferGrowth() {
    Random r = new Random(34);
    FilterKeys.RowHasher hasher = new FilterKeys.RowHasher();
    for (int i = 0; i < 5_000; i++) {
      byte[] row = new byte[1 + r.nextInt(i % 10 == 0 ? 2_000 : 40)];
      r.nextBytes(row);
      assertEquals(FilterKeys.rowHash(row), hasher.hash(row), "row of " + row.length + " bytes");
    }
  }
}
