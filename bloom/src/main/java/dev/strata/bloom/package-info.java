/**
 * The filters of Strata's read path: {@link dev.strata.bloom.BlockedBloomFilter}, a
 * cache-line-blocked Bloom filter whose serialized form is an SSTable's filter chunk; {@link
 * dev.strata.bloom.KeyHash}, the one 64-bit hash every filter key goes through (part of the
 * on-disk format); {@link dev.strata.bloom.BloomSizing}, the false-positive model and probe count;
 * {@link dev.strata.bloom.RibbonFilter}, a static filter about 30% smaller at the same rate, built
 * once from every key's hash (its byte format in {@link dev.strata.bloom.RibbonFormat}); {@link
 * dev.strata.bloom.FilterBudget}, the split of a tree's filter memory between its sorted runs that
 * minimises an absent key's expected false positives; and {@link
 * dev.strata.bloom.ClassicBloomFilter}, the unblocked baseline for tests and benchmarks.
 *
 * <p>The bottom of the layering: depends on hash4j only.
 *
 * <pre>{@code
 * BlockedBloomFilter filter = BlockedBloomFilter.create(keys.size(), 10.0);
 * for (byte[] key : keys) filter.put(key);
 * byte[] chunk = filter.toByteArray();                 // what an SSTable stores
 * BlockedBloomFilter loaded = BlockedBloomFilter.fromByteArray(chunk);
 * long h = KeyHash.hash64(probe, 0, probe.length);      // hash once per Get ...
 * if (!loaded.mightContainHash(h)) skipTable();         // ... probe every table with it
 * }</pre>
 */
package dev.strata.bloom;
