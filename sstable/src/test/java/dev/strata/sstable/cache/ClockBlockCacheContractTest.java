package dev.strata.sstable.cache;

/** {@link ClockBlockCache} holding every block on the heap, against the shared contract. */
final class ClockBlockCacheContractTest extends AbstractBlockCacheContractTest {
  @Override
  protected BlockCache newCache(long capacityBytes) {
    return new ClockBlockCache(capacityBytes, 4);
  }
}
