package dev.strata.bloom;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The temporary memory a {@link RibbonBuilder} keeps: stated per slot and key, bounded by the
 * largest build.
 */
final class RibbonBuilderTest {

  @Test
  void scratch_isTwentyBytesPerSlotAndEightPerKey_ofTheLargestBuild() {
    RibbonBuilder builder = new RibbonBuilder();
    assertEquals(0, builder.scratchBytes());
    long[] hashes = new SplittableRandom(30).longs(150_000).toArray();
    RibbonFilter chunk = builder.forFalsePositiveRate(hashes, hashes.length, 0.01);
    assertEquals(0, chunk.seed(), "first attempt succeeded, so its arrays are all there is");
    long slots = (long) chunk.numBlocks() * RibbonFormat.BLOCK_SLOTS;
    long expected =
        RibbonBanding.BYTES_PER_SLOT * slots + RibbonBanding.BYTES_PER_KEY * (long) hashes.length;
    assertEquals(expected, builder.scratchBytes());
    // About 4.4 MB for the 150,000-key chunk at 1%: 1.06 slots per key, 29.2 bytes per key.
    assertEquals(29.2, (double) expected / hashes.length, 0.1);

    builder.forFalsePositiveRate(hashes, hashes.length, 0.01);
    builder.forFalsePositiveRate(hashes, 1_000, 0.01);
    assertEquals(expected, builder.scratchBytes(), "the same or a smaller chunk allocates nothing");
  }
}
