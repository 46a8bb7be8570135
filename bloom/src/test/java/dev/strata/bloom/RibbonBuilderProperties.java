package dev.strata.bloom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A {@link RibbonBuilder} reuses its banding arrays from one build to the next without zeroing them
 * wholesale (back-substitution clears what it reads, a failed attempt is cleared by the next
 * reset). The properties: whatever sequence of builds one builder makes (growing, shrinking, empty,
 * failed attempts in between), each filter is byte for byte the one a fresh build gives, and it
 * has no false negatives, reloaded or not. Seeded: the seed is new each run and printed; {@code
 * -Dstrata.seed=N} replays a run.
 */
final class RibbonBuilderProperties {

  /** Key sets of random sizes and shapes, one builder for all: the fresh builds' bytes. */
  @Test
  void reusedBuilder_buildsTheFreshFilters() {
    long seed = seed("reusedBuilder_buildsTheFreshFilters");
    SplittableRandom random = new SplittableRandom(seed);
    RibbonBuilder builder = new RibbonBuilder();
    int retried = 0;
    for (int build = 0; build < 400; build++) {
      int count = random.nextInt(4) == 0 ? random.nextInt(20_000) : random.nextInt(600);
      long[] hashes = hashes(count, random);
      String at = "seed=" + seed + " build=" + build + " count=" + count;
      RibbonFilter reused;
      byte[] fresh;
      if (random.nextBoolean()) {
        double bits = 1 + random.nextDouble() * 20;
        reused = builder.build(hashes, count, bits);
        fresh = RibbonFilter.build(hashes, count, bits).toByteArray();
      } else {
        double fpp = Math.scalb(1.0, -random.nextInt(1, 24)) * (0.5 + random.nextDouble() / 2);
        reused = builder.forFalsePositiveRate(hashes, count, fpp);
        fresh = RibbonFilter.forFalsePositiveRate(hashes, count, fpp).toByteArray();
      }
      byte[] bytes = reused.toByteArray();
      assertArrayEquals(fresh, bytes, at);
      RibbonFilter reloaded = RibbonFilter.fromByteArray(bytes);
      for (int i = 0; i < count; i++) {
        if (!reused.mightContainHash(hashes[i]) || !reloaded.mightContainHash(hashes[i])) {
          throw new AssertionError("false negative for hash " + hashes[i] + ", " + at);
        }
      }
      retried += reused.seed() > 0 ? 1 : 0;
    }
    // A quarter of the key sets have a zero high half, and those of a few hundred keys or more
    // cannot be built under seed 0 (the chance that none of 400 builds is one is below 1e-8):
    // the arrays their failed attempts left were cleared and reused above.
    assertTrue(retried > 0, "no build needed a second attempt, seed=" + seed);
    assertTrue(builder.scratchBytes() > 0);
  }

  /**
   * A banding whose attempt failed, reset and reused, solves a new system exactly as a fresh
   * banding does: nothing of the failed attempt's rows survives the reset.
   */
  @Test
  void failedAttempt_leavesNothingBehind() {
    long seed = seed("failedAttempt_leavesNothingBehind");
    SplittableRandom random = new SplittableRandom(seed);
    RibbonBanding reused = new RibbonBanding();
    for (int round = 0; round < 50; round++) {
      String at = "seed=" + seed + " round=" + round;
      // More keys than a system of 16 blocks (1,024 slots) holds: the attempt must fail.
      // Distinct keys, so at least 176 rows are dependent, and each makes the attempt fail unless
      // its result happens to reduce to zero too.
      int overfilled = 1_200 + random.nextInt(2_000);
      long[] many = random.longs(overfilled).toArray();
      reused.reset(16, 1 + random.nextInt(32), random.nextInt(4));
      assertFalse(reused.addAll(many, overfilled), at);

      int blocks = 2 + random.nextInt(40);
      int columns = random.nextInt(33);
      int attemptSeed = random.nextInt(4);
      int count = random.nextInt(blocks * RibbonFormat.BLOCK_SLOTS * 9 / 10);
      long[] hashes = hashes(count, random);
      RibbonBanding fresh = new RibbonBanding(blocks, columns, attemptSeed);
      reused.reset(blocks, columns, attemptSeed);
      boolean freshAdded = fresh.addAll(hashes, count);
      assertEquals(freshAdded, reused.addAll(hashes, count), at);
      if (freshAdded) {
        int lower = columns == 0 ? 0 : random.nextInt(blocks);
        assertArrayEquals(fresh.solve(columns, lower), reused.solve(columns, lower), at);
      }
    }
  }

  /** This run's seed for {@code test}, printed: new each run unless -Dstrata.seed is set. */
  private static long seed(String test) {
    long seed = Long.getLong("strata.seed", System.nanoTime());
    System.out.println("RibbonBuilderProperties." + test + " seed=" + seed);
    return seed;
  }

  /**
   * Random hashes, a quarter of the time with many duplicates, and a quarter of the time all with
   * a zero high half: under seed 0 those rows all start at slot 0, so a set of more than a few
   * hundred fails its first attempt and is retried in the arrays that attempt left behind.
   */
  private static long[] hashes(int count, SplittableRandom random) {
    long[] out = new long[count];
    int shape = random.nextInt(4);
    for (int i = 0; i < count; i++) {
      out[i] =
          switch (shape) {
            case 0 -> i > 0 && random.nextBoolean() ? out[random.nextInt(i)] : random.nextLong();
            case 1 -> random.nextLong() >>> 32;
            default -> random.nextLong();
          };
    }
    return out;
  }
}
