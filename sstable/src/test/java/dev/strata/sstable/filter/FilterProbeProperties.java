package dev.strata.sstable.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.strata.sstable.testing.Seeded;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A probe re-aimed from cell to cell ({@link FilterProbe#aim}, one per thread on the Get path)
 * answers each cell exactly as a fresh probe of it does: no hash of an earlier cell survives the
 * re-aim, whichever hashes the earlier lookups computed.
 */
final class FilterProbeProperties {
  @Test
  void reAimedProbe_hashesAsAFreshOne() {
    Seeded.run("reAimedProbe_hashesAsAFreshOne", 50, random -> {
      FilterProbe reused = FilterProbe.reusable();
      for (int i = 0; i < 200; i++) {
        byte[] row = bytes(random, 1 + random.nextInt(12));
        byte[] column = bytes(random, random.nextInt(6));
        FilterProbe fresh = FilterProbe.of(row, column);
        assertSame(reused, reused.aim(row, column));
        assertSame(row, reused.row());
        assertSame(column, reused.column());
        // Ask for either hash, both or none, in either order: what a lookup asks varies by table.
        switch (random.nextInt(4)) {
          case 0 -> assertEquals(fresh.rowHash(), reused.rowHash());
          case 1 -> assertEquals(fresh.cellHash(), reused.cellHash());
          case 2 -> {
            assertEquals(fresh.cellHash(), reused.cellHash());
            assertEquals(fresh.rowHash(), reused.rowHash());
          }
          default -> { }
        }
      }
    });
  }

  /** Rows of few distinct bytes, so that consecutive cells often share their row. */
  private static byte[] bytes(Random random, int n) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) random.nextInt(3);
    }
    return b;
  }

  @Test
  void probeAimedAsAnother_hashesAsAFreshOne_whateverTheOtherComputed() {
    Seeded.run("probeAimedAsAnother_hashesAsAFreshOne_whateverTheOtherComputed", 50, random -> {
      FilterProbe copy = FilterProbe.reusable();
      for (int i = 0; i < 200; i++) {
        byte[] row = bytes(random, 1 + random.nextInt(12));
        byte[] column = bytes(random, random.nextInt(6));
        FilterProbe other = FilterProbe.of(row, column);
        switch (random.nextInt(4)) { // the hashes the other lookup happened to compute
          case 0 -> other.rowHash();
          case 1 -> other.cellHash();
          case 2 -> {
            other.rowHash();
            other.cellHash();
          }
          default -> { }
        }
        assertSame(copy, copy.aimAs(other));
        FilterProbe fresh = FilterProbe.of(row, column);
        assertSame(row, copy.row());
        assertSame(column, copy.column());
        assertEquals(fresh.rowHash(), copy.rowHash());
        assertEquals(fresh.cellHash(), copy.cellHash());
      }
    });
  }
}
