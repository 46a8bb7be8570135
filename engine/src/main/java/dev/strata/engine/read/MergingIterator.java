package dev.strata.engine.read;

import dev.strata.sstable.InternalKey;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The union of several sorted sources as one sorted stream, every version of every cell included,
 * by a binary heap on the sources' current keys. Two sources never hold the same internal key (a
 * sequence number is written once), so ties cannot occur.
 *
 * <p>Not thread-safe: an iterator belongs to one thread.
 */
public final class MergingIterator implements InternalIterator {
  private final List<InternalIterator> sources;
  private final PriorityQueue<InternalIterator> heap;
  private InternalIterator current;

  /** Merges {@code sources}, which this iterator closes when it is closed. */
  public MergingIterator(List<InternalIterator> sources) {
    this.sources = new ArrayList<>(sources);
    this.heap =
        new PriorityQueue<>(Math.max(1, sources.size()), (a, b) -> InternalKey.compare(a.key(), b.key()));
  }

  @Override
  public void seekToFirst() throws IOException {
    heap.clear();
    for (InternalIterator s : sources) {
      s.seekToFirst();
      offer(s);
    }
    current = heap.poll();
  }

  @Override
  public void seek(InternalKey target) throws IOException {
    heap.clear();
    for (InternalIterator s : sources) {
      s.seek(target);
      offer(s);
    }
    current = heap.poll();
  }

  @Override
  public boolean isValid() {
    return current != null;
  }

  @Override
  public void next() throws IOException {
    assert current != null : "next() on an exhausted iterator";
    current.next();
    offer(current);
    current = heap.poll();
  }

  @Override
  public InternalKey key() {
    return current.key();
  }

  @Override
  public byte[] value() {
    return current.value();
  }

  @Override
  public void close() {
    for (InternalIterator s : sources) {
      s.close();
    }
    heap.clear();
    current = null;
  }

  private void offer(InternalIterator s) {
    if (s.isValid()) {
      heap.add(s);
    }
  }
}
