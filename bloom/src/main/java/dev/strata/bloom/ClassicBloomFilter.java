package dev.strata.bloom;

/**
 * A classic (unblocked) Bloom filter, kept as the baseline that shows what blocking gains and
 * costs: k = round(bitsPerKey * ln 2) bits spread over the whole array, so a query touches up to k
 * cache lines. Never persisted.
 *
 * <p>Probe positions come from the same {@link KeyHash} by double hashing [1]: {@code g_i = h + i *
 * h2} with {@code h2} a remix of {@code h}, each reduced to a bit index by multiply-high of its high
 * 32 bits. {@code false} from {@code mightContain*} means the key is definitely absent.
 *
 * <p>[1] A. Kirsch, M. Mitzenmacher, "Less Hashing, Same Performance: Building a Better Bloom
 * Filter" (ESA 2006).
 *
 * <p>Not thread-safe for {@code put}; {@code mightContain*} is safe from many threads once no more
 * keys are being put.
 */
public final class ClassicBloomFilter {
  /** Most bits: the bit index is a reduced 32-bit value and the words live in one long[]. */
  private static final long MAX_BITS = (long) Integer.MAX_VALUE * Long.SIZE;

  private final long[] words;
  private final long numBits;
  private final int numProbes;

  private ClassicBloomFilter(long numBits, int numProbes) {
    this.words = new long[(int) (numBits / Long.SIZE)];
    this.numBits = numBits;
    this.numProbes = numProbes;
  }

  /**
   * An empty filter of {@code ceil(expectedKeys * bitsPerKey)} bits rounded up to whole words.
   *
   * @throws IllegalArgumentException if {@code expectedKeys < 0}, {@code bitsPerKey} is not in [1,
   *     64], or the filter would be too large
   */
  public static ClassicBloomFilter create(long expectedKeys, double bitsPerKey) {
    if (expectedKeys < 0) {
      throw new IllegalArgumentException("expectedKeys must be >= 0: " + expectedKeys);
    }
    if (!(bitsPerKey >= 1 && bitsPerKey <= 64)) {
      throw new IllegalArgumentException("bitsPerKey must be in [1, 64]: " + bitsPerKey);
    }
    double bits = Math.ceil(expectedKeys * bitsPerKey / Long.SIZE) * Long.SIZE;
    if (bits > MAX_BITS || bits > 1L << 32) {
      throw new IllegalArgumentException("expectedKeys * bitsPerKey too large: " + bits + " bits");
    }
    long numBits = Math.max(Long.SIZE, (long) bits);
    int probes = Math.max(1, (int) Math.round(bitsPerKey * Math.log(2)));
    return new ClassicBloomFilter(numBits, probes);
  }

  /** Adds {@code key}. */
  public void put(byte[] key) {
    putHash(KeyHash.hash64(key));
  }

  /** Adds {@code key[offset, offset + length)}. */
  public void put(byte[] key, int offset, int length) {
    putHash(KeyHash.hash64(key, offset, length));
  }

  /** Adds a key by its {@link KeyHash#hash64}. */
  public void putHash(long hash64) {
    long h2 = remix(hash64);
    long g = hash64;
    for (int i = 0; i < numProbes; i++) {
      long bit = bitIndex(g);
      words[(int) (bit >>> 6)] |= 1L << bit;
      g += h2;
    }
  }

  /** False means {@code key} is definitely absent. */
  public boolean mightContain(byte[] key) {
    return mightContainHash(KeyHash.hash64(key));
  }

  /** False means {@code key[offset, offset + length)} is definitely absent. */
  public boolean mightContain(byte[] key, int offset, int length) {
    return mightContainHash(KeyHash.hash64(key, offset, length));
  }

  /** False means the key with this {@link KeyHash#hash64} is definitely absent. */
  public boolean mightContainHash(long hash64) {
    long h2 = remix(hash64);
    long g = hash64;
    for (int i = 0; i < numProbes; i++) {
      long bit = bitIndex(g);
      if ((words[(int) (bit >>> 6)] & (1L << bit)) == 0) {
        return false;
      }
      g += h2;
    }
    return true;
  }

  private long bitIndex(long g) {
    return ((g >>> 32) * numBits) >>> 32;
  }

  /** The second hash of double hashing: a bijective remix (SplitMix64's finalizer), made odd. */
  private static long remix(long h) {
    h = (h ^ (h >>> 30)) * 0xbf58476d1ce4e5b9L;
    h = (h ^ (h >>> 27)) * 0x94d049bb133111ebL;
    return (h ^ (h >>> 31)) | 1;
  }

  /** Bits in the filter. */
  public long bitSize() {
    return numBits;
  }

  /** Bits set per key. */
  public int numProbes() {
    return numProbes;
  }

  /** The classic model {@code (1 - e^{-kn/m})^k} for this filter holding {@code keys} keys. */
  public double expectedFpp(long keys) {
    if (keys < 0) {
      throw new IllegalArgumentException("keys must be >= 0: " + keys);
    }
    return BloomSizing.classicFpp(numBits, keys, numProbes);
  }
}
