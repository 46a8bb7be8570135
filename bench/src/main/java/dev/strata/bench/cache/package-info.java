/**
 * How the block cache was chosen and how it is measured: {@link
 * dev.strata.bench.cache.CacheSimCommand} ({@code strata-bench cachesim}) replays modelled Get traces
 * of a leveled tree ({@link dev.strata.bench.cache.TreeModel}) through {@code ClockBlockCache}, the
 * old {@link dev.strata.bench.cache.LruBlockCache} and Caffeine ({@link
 * dev.strata.bench.cache.CaffeineBlockCache}) and prints hit rates and bytes read per Get; {@link
 * dev.strata.bench.cache.CacheHitBenchmark} measures hit throughput as reader threads grow.
 *
 * <p>The old LRU lives here, not in {@code sstable}, only as a baseline. Caffeine is a dependency of
 * {@code bench} alone.
 *
 * <p>Concurrency: the harness is single-threaded; the JMH benchmark shares one cache among its
 * threads.
 */
package dev.strata.bench.cache;
