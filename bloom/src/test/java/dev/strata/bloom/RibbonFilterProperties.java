package dev.strata.bloom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.doubles;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.LongUnaryOperator;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/**
 * The Ribbon filter's invariant, no false negatives, as properties: for all hash lists (random,
 * duplicated, adversarial), every size from 0 up and every budget, every hash the filter was built
 * from is reported as possibly present, before and after a byte-exact round trip.
 *
 * <p>Two forms: QuickTheories over arbitrary lists (shrinking on failure), and a seeded generator
 * over named adversarial patterns at every size from 0 to 300 and larger sizes beyond. The seed is
 * new each run and printed; {@code -Dstrata.seed=N} replays a run.
 */
final class RibbonFilterProperties {

  /** Hashes: mostly arbitrary, often from a tiny range (duplicates, a zero high half). */
  private static final Gen<Long> HASHES =
      longs().all().mix(longs().between(0, 40), 25).mix(longs().between(-3, 3), 10);

  /** For all hash lists and bits per key in [1, 64]: no false negatives, round trip exact. */
  @Test
  void noFalseNegatives_anyHashesAnyBitsPerKey() {
    qt().withExamples(300)
        .forAll(lists().of(HASHES).ofSizeBetween(0, 2000), doubles().between(1, 64))
        .checkAssert(
            (hashes, bits) -> {
              long[] array = hashes.stream().mapToLong(Long::longValue).toArray();
              checkFilter(RibbonFilter.build(array, array.length, bits), array, array.length);
            });
  }

  /** For all hash lists and rates in [2^-32, 1): no false negatives, model rate within fpp. */
  @Test
  void noFalseNegatives_anyHashesAnyRate() {
    qt().withExamples(300)
        .forAll(lists().of(HASHES).ofSizeBetween(0, 2000), integers().between(1, 320))
        .checkAssert(
            (hashes, tenthBits) -> {
              long[] array = hashes.stream().mapToLong(Long::longValue).toArray();
              double fpp = Math.scalb(1.0, -tenthBits / 10) * (1 - (tenthBits % 10) / 20.0);
              RibbonFilter f = RibbonFilter.forFalsePositiveRate(array, array.length, fpp);
              assertTrue(f.expectedFpp() <= fpp, f + " at " + fpp);
              checkFilter(f, array, array.length);
            });
  }

  /** Adversarial and plain hash patterns, by index {@code i} of a key set. */
  private enum Pattern {
    RANDOM(null),
    SEQUENTIAL(i -> i),
    ALL_EQUAL(i -> 0x5555_aaaa_0000_ffffL),
    HIGH_BITS_EQUAL(null),
    LOW_BITS_EQUAL(null),
    STRIDE_2_32(i -> i << 32),
    POWERS_OF_TWO(i -> 1L << (i & 63) | (i >>> 6)),
    DUPLICATES(null),
    NEGATED_PAIRS(i -> (i & 1) == 0 ? i * 0x9e3779b97f4a7c15L : ~((i - 1) * 0x9e3779b97f4a7c15L));

    private final LongUnaryOperator fixed;

    Pattern(LongUnaryOperator fixed) {
      this.fixed = fixed;
    }

    long[] hashes(int count, SplittableRandom random) {
      long[] out = new long[count];
      long constant = random.nextLong();
      for (int i = 0; i < count; i++) {
        out[i] =
            switch (this) {
              case RANDOM -> random.nextLong();
              case HIGH_BITS_EQUAL -> (constant & 0xffff_ffff_0000_0000L) | random.nextInt();
              case LOW_BITS_EQUAL -> (random.nextLong() << 32) | (constant & 0xffff_ffffL);
              case DUPLICATES -> random.nextLong(Math.max(1, count / 3)) * constant;
              default -> fixed.applyAsLong(i);
            };
      }
      return out;
    }
  }

  /**
   * Every size from 0 to 300, then sizes growing by a quarter up to 40,000, for every pattern, by
   * bits per key and by rate (random budgets from the printed seed): no false negatives.
   */
  @Test
  void noFalseNegatives_everySizeEveryPattern() {
    long seed = Long.getLong("strata.seed", System.nanoTime());
    System.out.println("RibbonFilterProperties.noFalseNegatives_everySizeEveryPattern seed=" + seed);
    SplittableRandom random = new SplittableRandom(seed);
    for (int count = 0; count <= 40_000; count = count < 300 ? count + 1 : count + count / 4) {
      for (Pattern pattern : Pattern.values()) {
        long[] hashes = pattern.hashes(count, random);
        double bits = 1 + random.nextDouble() * 15;
        double fpp = Math.scalb(1.0, -random.nextInt(1, 24)) * (0.5 + random.nextDouble() / 2);
        String at = "seed=" + seed + " " + pattern + " count=" + count;
        checkFilter(RibbonFilter.build(hashes, count, bits), hashes, count, at + " bits=" + bits);
        checkFilter(
            RibbonFilter.forFalsePositiveRate(hashes, count, fpp), hashes, count, at + " fpp=" + fpp);
      }
    }
  }

  /** A filter built from a prefix of a longer array is the filter of that prefix alone. */
  @Test
  void build_usesOnlyTheFirstCountHashes() {
    qt().forAll(lists().of(longs().all()).ofSizeBetween(0, 500), integers().between(0, 100))
        .checkAssert(
            (List<Long> hashes, Integer percent) -> {
              long[] array = hashes.stream().mapToLong(Long::longValue).toArray();
              int count = array.length * percent / 100;
              long[] copy = Arrays.copyOf(array, count);
              assertArrayEquals(
                  RibbonFilter.build(copy, count, 8).toByteArray(),
                  RibbonFilter.build(array, count, 8).toByteArray());
            });
  }

  private static void checkFilter(RibbonFilter filter, long[] hashes, int count) {
    checkFilter(filter, hashes, count, filter.toString());
  }

  private static void checkFilter(RibbonFilter filter, long[] hashes, int count, String at) {
    byte[] bytes = filter.toByteArray();
    RibbonFilter reloaded = RibbonFilter.fromByteArray(bytes);
    assertArrayEquals(bytes, reloaded.toByteArray(), at);
    assertEquals(filter.bitSize(), reloaded.bitSize(), at);
    assertEquals(filter.expectedFpp(), reloaded.expectedFpp(), at);
    for (int i = 0; i < count; i++) {
      long h = hashes[i];
      if (!filter.mightContainHash(h) || !reloaded.mightContainHash(h)) {
        throw new AssertionError("false negative for hash " + h + " (#" + i + "), " + at
            + ", filter " + filter);
      }
    }
  }
}
