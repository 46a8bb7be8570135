package dev.strata.bench.cache;

import dev.strata.sstable.cache.AbstractBlockCacheContractTest;
import dev.strata.sstable.cache.BlockCache;

/**
 * {@link CaffeineBlockCache} against the block cache contract, its maintenance run by the calling
 * thread (as the hit-rate harness runs it), so that evictions have happened when a call returns.
 */
final class CaffeineBlockCacheContractTest extends AbstractBlockCacheContractTest {
  @Override
  protected BlockCache newCache(long capacityBytes) {
    return new CaffeineBlockCache(capacityBytes, Runnable::run);
  }
}
