package dev.strata.bench.cache;

import dev.strata.sstable.cache.AbstractBlockCacheContractTest;
import dev.strata.sstable.cache.BlockCache;

/** The baseline {@link LruBlockCache} against the block cache contract. */
final class LruBlockCacheContractTest extends AbstractBlockCacheContractTest {
  @Override
  protected BlockCache newCache(long capacityBytes) {
    return new LruBlockCache(capacityBytes, 4);
  }
}
