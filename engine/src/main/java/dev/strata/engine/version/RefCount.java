package dev.strata.engine.version;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A reference count that fails fast: taking a reference after the last was released, or releasing
 * more than were taken, is a bug and throws instead of corrupting a lifetime. Starts at one, the
 * creator's reference.
 *
 * <p>Thread-safe.
 */
final class RefCount {
  private final AtomicInteger refs = new AtomicInteger(1);
  private final Object owner;

  RefCount(Object owner) {
    this.owner = owner;
  }

  /** Takes a reference on an object the caller knows to be alive (it holds a reference already). */
  void acquire() {
    if (refs.getAndIncrement() <= 0) {
      throw new IllegalStateException("use after release: " + owner);
    }
  }

  /** Takes a reference if the object is still alive; false when its last reference is gone. */
  boolean tryAcquire() {
    for (int n = refs.get(); n > 0; n = refs.get()) {
      if (refs.compareAndSet(n, n + 1)) {
        return true;
      }
    }
    return false;
  }

  /** Drops a reference; true when it was the last, and the caller must free the object. */
  boolean release() {
    int n = refs.decrementAndGet();
    if (n < 0) {
      throw new IllegalStateException("over-release: " + owner);
    }
    return n == 0;
  }

  /** References held now; for invariant checks and messages. */
  int get() {
    return refs.get();
  }
}
