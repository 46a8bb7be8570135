package dev.strata.sstable.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.bloom.BlockedBloomFilter;
import dev.strata.bloom.RibbonFilter;
import dev.strata.sstable.format.SstableFormat;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Filter payloads of every kind, from 0 keys up, serialized as a table stores them and decoded as
 * a reader loads them: no false negatives, the kind read back, and the pre-kind payloads of
 * versions 1 to 3 still read as Bloom filters. Seeded; the seed is printed.
 */
final class FilterChunkProperties {
  /** {@code filter} and the kind byte: a version-4 payload. */
  private static byte[] payload(byte[] filter, FilterKind kind) {
    byte[] p = Arrays.copyOf(filter, filter.length + 1);
    p[filter.length] = (byte) kind.id();
    return p;
  }

  @Test
  void everyKind_serializedAndReloaded_hasNoFalseNegatives() {
    long seed = new Random().nextLong();
    System.out.println("FilterChunkProperties seed " + seed);
    Random r = new Random(seed);
    for (int trial = 0; trial < 60; trial++) {
      int n = trial < 4 ? trial : r.nextInt(r.nextBoolean() ? 100 : 20_000);
      long[] hashes = new long[n];
      for (int i = 0; i < n; i++) {
        hashes[i] = r.nextLong();
      }
      double bits = 1 + 20 * r.nextDouble();
      BlockedBloomFilter bloom = BlockedBloomFilter.create(n, bits);
      for (long h : hashes) {
        bloom.putHash(h);
      }
      RibbonFilter ribbon = RibbonFilter.build(hashes, n, bits);
      for (FilterKind kind : FilterKind.values()) {
        byte[] bytes = payload(kind == FilterKind.BLOOM ? bloom.toByteArray() : ribbon.toByteArray(), kind);
        FilterChunk chunk = FilterChunk.decode(bytes, bytes.length, SstableFormat.VERSION_CURRENT);
        assertEquals(kind, chunk.kind());
        for (long h : hashes) {
          assertTrue(chunk.mightContainHash(h), "seed " + seed + " trial " + trial + " " + kind);
        }
      }
      byte[] old = bloom.toByteArray(); // versions 1 to 3: the Bloom filter's bytes alone
      FilterChunk chunk = FilterChunk.decode(old, old.length, SstableFormat.VERSION_FILTER_KINDS - 1);
      assertEquals(FilterKind.BLOOM, chunk.kind());
      for (long h : hashes) {
        assertTrue(chunk.mightContainHash(h), "seed " + seed + " trial " + trial + " version 3");
      }
    }
  }

  @Test
  void unknownKindsAndDamage_areRefused() {
    byte[] bloom = BlockedBloomFilter.create(10, 10).toByteArray();
    byte[] unknown = payload(bloom, FilterKind.BLOOM);
    unknown[unknown.length - 1] = 9;
    assertThrows(IllegalArgumentException.class,
        () -> FilterChunk.decode(unknown, unknown.length, SstableFormat.VERSION_CURRENT));
    byte[] wrongKind = payload(bloom, FilterKind.RIBBON);
    assertThrows(IllegalArgumentException.class,
        () -> FilterChunk.decode(wrongKind, wrongKind.length, SstableFormat.VERSION_CURRENT));
    assertThrows(IllegalArgumentException.class,
        () -> FilterChunk.decode(new byte[0], 0, SstableFormat.VERSION_CURRENT));
  }
}
