package dev.strata.bench.readamp;

import dev.strata.bloom.BlockedBloomFilter;

/**
 * The false-positive models the report sets beside the measured rates.
 *
 * <ul>
 *   <li>Strata: {@link BlockedBloomFilter#expectedFpp} of a filter sized for a chunk's keys at the
 *       table's bits/key: Strata's own exact model of its blocked layout.
 *   <li>RocksDB: {@code FastLocalBloomImpl::EstimatedFpRate} as documented in RocksDB's {@code
 *       util/bloom_impl.h} (format_version 5+): the cache-local rate {@code CacheLocalFpRate} (the
 *       standard rate averaged at one standard deviation above and below the mean keys per 512-bit
 *       cache line), combined with the 64-bit fingerprint collision rate; the probe count from
 *       {@code ChooseNumProbes(millibits per key)}.
 * </ul>
 *
 * <p>Immutable (static methods only).
 */
final class FprModels {
  private static final int CACHE_LINE_BITS = 512;

  private FprModels() {}

  /** Strata's model rate of one filter chunk holding {@code keysPerChunk} keys at {@code bitsPerKey}. */
  static double strata(long keysPerChunk, double bitsPerKey) {
    long keys = Math.max(1, keysPerChunk);
    return BlockedBloomFilter.create(keys, bitsPerKey).expectedFpp(keys);
  }

  /** RocksDB's FastLocalBloom estimate for a filter of {@code keys} keys at {@code bitsPerKey}. */
  static double rocksDb(long keys, double bitsPerKey) {
    int millibits = (int) Math.round(bitsPerKey * 1000);
    int probes = rocksDbProbes(millibits);
    double local = cacheLocalFpRate(millibits / 1000.0, probes);
    double fingerprint = fingerprintFpRate(Math.max(1, keys), 64);
    return local + fingerprint - local * fingerprint;
  }

  /** {@code FastLocalBloomImpl::ChooseNumProbes}. */
  static int rocksDbProbes(int millibitsPerKey) {
    int[] limits = {2080, 3580, 5100, 6640, 8300, 10070, 11720, 14001, 16050, 18300, 22001, 25501};
    for (int i = 0; i < limits.length; i++) {
      if (millibitsPerKey <= limits[i]) {
        return i + 1;
      }
    }
    return millibitsPerKey > 50000 ? 24 : (millibitsPerKey - 1) / 2000 - 1;
  }

  private static double standardFpRate(double bitsPerKey, int probes) {
    return Math.pow(1 - Math.exp(-probes / bitsPerKey), probes);
  }

  private static double cacheLocalFpRate(double bitsPerKey, int probes) {
    double keysPerLine = CACHE_LINE_BITS / bitsPerKey;
    double stddev = Math.sqrt(keysPerLine);
    double crowded = standardFpRate(CACHE_LINE_BITS / (keysPerLine + stddev), probes);
    double uncrowded = standardFpRate(CACHE_LINE_BITS / (keysPerLine - stddev), probes);
    return (crowded + uncrowded) / 2;
  }

  private static double fingerprintFpRate(long keys, int bits) {
    double base = keys * Math.pow(0.5, bits);
    return base > 0.0001 ? 1 - Math.exp(-base) : base - base * base * 0.5;
  }
}
