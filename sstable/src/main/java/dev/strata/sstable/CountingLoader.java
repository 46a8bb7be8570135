package dev.strata.sstable;

import dev.strata.sstable.cache.BlockCache;
import dev.strata.sstable.cache.CachedBlock;
import java.io.IOException;

/**
 * A loader that records whether the cache ran it: the reader counts a fetch as a block read when it
 * did, as a cache hit when it did not.
 */
final class CountingLoader<T extends CachedBlock> implements BlockCache.Loader<T> {
  private final BlockCache.Loader<T> delegate;
  boolean ran;

  CountingLoader(BlockCache.Loader<T> delegate) {
    this.delegate = delegate;
  }

  @Override
  public T load() throws IOException {
    ran = true;
    return delegate.load();
  }
}
