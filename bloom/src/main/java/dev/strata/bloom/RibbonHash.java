package dev.strata.bloom;

/**
 * How a {@link RibbonFilter} derives a key's row from its {@link KeyHash#hash64}: the start slot,
 * the 128 coefficient bits and the 32 fingerprint bits, under a seed. Building and querying both
 * go through here, so they cannot disagree.
 *
 * <pre>
 * x      = hash64 for seed 0, else mix(hash64 + seed * SEED_STEP)     (mod 2^64)
 * start  = ((x &gt;&gt;&gt; 32) * numStarts) &gt;&gt;&gt; 32             multiply-high range reduction
 * lo     = (x * LO_MULTIPLIER) | 1                        coefficient bits 0..63, bit 0 always set
 * hi     = (x ^ (x &gt;&gt;&gt; 32)) * HI_MULTIPLIER              coefficient bits 64..127
 * result = (x * RESULT_MULTIPLIER) &gt;&gt;&gt; 32                 fingerprint; column j checks bit j
 * mix(z) = Stafford's variant 13 of the MurmurHash3 finalizer
 * </pre>
 *
 * Why each piece: {@code mix} is a bijection, so distinct hashes stay distinct under every seed
 * and a new seed gives an unrelated system. The start comes from the high half of {@code x};
 * keys with nearby starts therefore share high bits of {@code x}, so neither coefficient word may
 * be a function of those bits alone: bit k of {@code lo} depends on bits 0..k of {@code x}, and
 * {@code hi} folds the high half onto the low one before its multiply. Coefficients and
 * fingerprint must not be linearly related (if the fingerprint were a linear function of the coefficient bits, a solution could satisfy
 * every row at once and the filter would pass almost everything): the fingerprint is the high
 * half of a product, nonlinear in every bit of {@code x}.
 *
 * <p>Immutable (static methods only); thread-safe.
 */
final class RibbonHash {
  /** Seed step: 2^64 divided by the golden ratio, odd, so seeds 0..65535 give distinct offsets. */
  static final long SEED_STEP = 0x9e3779b97f4a7c15L;

  /** Odd multiplier of the low coefficient word (a bijection of {@code x}). */
  static final long LO_MULTIPLIER = 0xd6e8feb86659fd93L;

  /** Odd multiplier of the high coefficient word, unrelated to {@link #LO_MULTIPLIER}. */
  static final long HI_MULTIPLIER = 0x9fb21c651e98df25L;

  /** Odd multiplier whose product's high half is the fingerprint. */
  static final long RESULT_MULTIPLIER = 0xa0761d6478bd642fL;

  private RibbonHash() {}

  /**
   * The key's hash remixed under {@code seed}; seed 0 takes the key hash as it is (XXH3's output
   * is already uniform), so the first attempt costs no mix on the query's critical path.
   */
  static long remix(long hash64, int seed) {
    return seed == 0 ? hash64 : mix(hash64 + seed * SEED_STEP);
  }

  /** Start slot in {@code [0, numStarts)}; {@code numStarts <= 2^31}. */
  static int start(long x, long numStarts) {
    return (int) (((x >>> 32) * numStarts) >>> 32);
  }

  /** Coefficient bits 0..63; bit 0 (the start slot) is always set. */
  static long coefficientLo(long x) {
    return (x * LO_MULTIPLIER) | 1;
  }

  /** Coefficient bits 64..127. */
  static long coefficientHi(long x) {
    return (x ^ (x >>> 32)) * HI_MULTIPLIER;
  }

  /** Fingerprint: column j of the solution must reproduce bit j. */
  static int result(long x) {
    return (int) ((x * RESULT_MULTIPLIER) >>> 32);
  }

  /** Stafford's variant 13 of the MurmurHash3 finalizer: a bijection on 64-bit values. */
  static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}
