package dev.strata.bloom;

/**
 * Builds {@link RibbonFilter}s one after another in the same temporary memory. A table writer
 * keeps one for its filter chunks: each chunk's build then neither allocates nor zeroes its
 * banding arrays, which are much larger than the filter itself (about 4.4 MB for a 150,000-key
 * chunk at 1%, against a filter of about 130 KiB), and which a fresh allocation would make the
 * processor both zero and evict from the cache again for every chunk.
 *
 * <p>Memory: the builder keeps the arrays of the largest system it has built, {@value
 * RibbonBanding#BYTES_PER_SLOT} bytes per slot (about 1.04 slots per key at chunk sizes) and
 * {@value RibbonBanding#BYTES_PER_KEY} bytes per key, for as long as it lives ({@link
 * #scratchBytes}). Bounded by the largest chunk, never by the table. The filters it returns own
 * their memory and outlive it.
 *
 * <p>The filters are those of {@link RibbonFilter#build} and {@link
 * RibbonFilter#forFalsePositiveRate}, byte for byte. Not thread-safe: one builder per writer.
 */
public final class RibbonBuilder {
  private final RibbonBanding banding = new RibbonBanding();

  /** A builder holding no memory yet; its first build sizes it. */
  public RibbonBuilder() {}

  /**
   * {@link RibbonFilter#build(long[], int, double)}, in this builder's arrays.
   *
   * @throws IllegalArgumentException as {@link RibbonFilter#build(long[], int, double)}
   */
  public RibbonFilter build(long[] hashes, int count, double bitsPerKey) {
    return RibbonFilter.build(hashes, count, bitsPerKey, banding);
  }

  /**
   * {@link RibbonFilter#forFalsePositiveRate(long[], int, double)}, in this builder's arrays.
   *
   * @throws IllegalArgumentException as {@link RibbonFilter#forFalsePositiveRate(long[], int,
   *     double)}
   */
  public RibbonFilter forFalsePositiveRate(long[] hashes, int count, double fpp) {
    return RibbonFilter.forFalsePositiveRate(hashes, count, fpp, banding);
  }

  /** Bytes of temporary memory this builder holds between builds. */
  public long scratchBytes() {
    return banding.scratchBytes();
  }
}
