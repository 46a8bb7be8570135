package dev.strata.sstable;

import dev.strata.sstable.cache.BlockCache;
import dev.strata.sstable.cache.CachedBlock;
import java.io.IOException;

/** A loader that records whether the cache ran it: a read when it did, a hit when it did not. */
final class CountingLoader<T extends CachedBlock> implements BlockCache.Loader<T> {
  private final BlockCache.Loader<T> delegate;
  private boolean ran;

  CountingLoader(BlockCache.Loader<T> delegate) {
    this.delegate = delegate;
  }

  @Override
  public T load() throws IOException {
    ran = true;
    return delegate.load();
  }

  /** Whether the cache ran the loader. */
  boolean ran() {
    return ran;
  }
}
