package dev.strata.bench.common;

/**
 * The 64-bit mixer every seeded key stream is built on: Stafford's variant 13 of the SplitMix64
 * finalizer, a bijection of the longs with good avalanche, so distinct indices give distinct,
 * uniformly spread keys.
 *
 * <p>Immutable (static methods only).
 */
public final class Mix {
  private Mix() {}

  /** Stafford variant 13: a bijection of the longs. */
  public static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}
