package dev.strata.bloom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

final class ClassicBloomFilterTest {

  @Test
  void create_rejectsBadArguments() {
    assertThrows(IllegalArgumentException.class, () -> ClassicBloomFilter.create(-1, 10));
    assertThrows(IllegalArgumentException.class, () -> ClassicBloomFilter.create(10, 0.5));
    assertThrows(IllegalArgumentException.class, () -> ClassicBloomFilter.create(10, 65));
    assertThrows(IllegalArgumentException.class, () -> ClassicBloomFilter.create(1L << 40, 64));
  }

  @Test
  void probes_areTheTextbookChoice() {
    assertEquals(7, ClassicBloomFilter.create(1000, 10).numProbes());
    assertEquals(1, ClassicBloomFilter.create(1000, 1).numProbes());
    assertEquals(6400, ClassicBloomFilter.create(640, 10).bitSize());
  }

  @Test
  void noFalseNegatives() {
    SplittableRandom r = new SplittableRandom(11);
    for (double bits : new double[] {1, 4, 10, 24}) {
      ClassicBloomFilter f = ClassicBloomFilter.create(5000, bits);
      long[] hashes = r.longs(5000).toArray();
      for (long h : hashes) {
        f.putHash(h);
      }
      for (long h : hashes) {
        assertTrue(f.mightContainHash(h));
      }
      byte[] key = {1, 2, 3};
      f.put(key);
      assertTrue(f.mightContain(key));
      assertTrue(f.mightContain(new byte[] {9, 1, 2, 3}, 1, 3));
    }
  }
}
