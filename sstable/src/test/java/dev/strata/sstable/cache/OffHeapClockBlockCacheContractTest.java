package dev.strata.sstable.cache;

/** {@link ClockBlockCache} holding data blocks off the heap, against the shared contract. */
final class OffHeapClockBlockCacheContractTest extends AbstractBlockCacheContractTest {
  @Override
  protected BlockCache newCache(long capacityBytes) {
    return new ClockBlockCache(capacityBytes, 4, true);
  }
}
