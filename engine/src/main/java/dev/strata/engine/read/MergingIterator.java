package dev.strata.engine.read;

import dev.strata.sstable.key.EncodedKeys;
import dev.strata.sstable.key.InternalKey;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The union of several sorted sources as one sorted stream, every version of every cell included,
 * by a binary heap on the sources' current keys: a min-heap moving forward, a max-heap moving
 * backward. Two sources never hold the same internal key (a sequence number is written once), so
 * ties cannot occur.
 *
 * <p>Changing direction (LevelDB's MergingIterator): moving forward, every source but the current
 * one stands at its first entry after the current key; moving backward, at its last entry before
 * it. So a {@link #prev()} after {@link #next()} (or the reverse) first repositions every other
 * source on the far side of the current key, then steps the current source, and rebuilds the heap
 * for the new direction.
 *
 * <p>Not thread-safe: an iterator belongs to one thread.
 */
public final class MergingIterator implements InternalIterator {
  private final List<InternalIterator> sources;
  private final PriorityQueue<InternalIterator> forward;
  private final PriorityQueue<InternalIterator> backward;
  private PriorityQueue<InternalIterator> heap;
  private InternalIterator current;
  /** True when every source has cheap encoded views ({@link InternalIterator#hasEncodedViews}). */
  private final boolean encoded;

  /** Merges {@code sources}, which this iterator closes when it is closed. */
  public MergingIterator(List<InternalIterator> sources) {
    this.sources = new ArrayList<>(sources);
    int capacity = Math.max(1, sources.size());
    // Sources that are all tables (a compaction's inputs) are compared by their encoded keys, in
    // place in their blocks: decoding a key object per entry was much of a compaction's garbage.
    this.encoded = !sources.isEmpty() && sources.stream().allMatch(InternalIterator::hasEncodedViews);
    Comparator<InternalIterator> order = encoded
        ? (a, b) -> EncodedKeys.compare(a.encodedKey(), a.encodedKeyLength(), b.encodedKey(), b.encodedKeyLength())
        : (a, b) -> InternalKey.compare(a.key(), b.key());
    this.forward = new PriorityQueue<>(capacity, order);
    this.backward =
        new PriorityQueue<>(capacity, Collections.reverseOrder(forward.comparator()));
    this.heap = forward;
  }

  @Override
  public void seekToFirst() throws IOException {
    for (InternalIterator s : sources) {
      s.seekToFirst();
    }
    rebuild(forward);
  }

  @Override
  public void seekToLast() throws IOException {
    for (InternalIterator s : sources) {
      s.seekToLast();
    }
    rebuild(backward);
  }

  @Override
  public void seek(InternalKey target) throws IOException {
    for (InternalIterator s : sources) {
      s.seek(target);
    }
    rebuild(forward);
  }

  @Override
  public void seekForPrev(InternalKey target) throws IOException {
    for (InternalIterator s : sources) {
      s.seekForPrev(target);
    }
    rebuild(backward);
  }

  @Override
  public boolean isValid() {
    return current != null;
  }

  @Override
  public void next() throws IOException {
    move(forward);
  }

  @Override
  public void prev() throws IOException {
    move(backward);
  }

  /** One step in {@code direction} (the heap of that direction), turning around first if needed. */
  private void move(PriorityQueue<InternalIterator> direction) throws IOException {
    assert current != null : "step on an exhausted iterator";
    boolean ahead = direction == forward;
    if (heap != direction) {
      InternalKey key = current.key();
      for (InternalIterator s : sources) {
        if (s != current) {
          // No other source holds `key`: this lands on its first entry after, or last before, it.
          if (ahead) {
            s.seek(key);
          } else {
            s.seekForPrev(key);
          }
        }
      }
      step(current, ahead);
      rebuild(direction);
      return;
    }
    step(current, ahead);
    offer(current);
    current = heap.poll();
  }

  private static void step(InternalIterator s, boolean ahead) throws IOException {
    if (ahead) {
      s.next();
    } else {
      s.prev();
    }
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
  public byte[] encodedKey() {
    return current.encodedKey();
  }

  @Override
  public int encodedKeyLength() {
    return current.encodedKeyLength();
  }

  @Override
  public byte[] valueArray() {
    return current.valueArray();
  }

  @Override
  public int valueOffset() {
    return current.valueOffset();
  }

  @Override
  public int valueLength() {
    return current.valueLength();
  }

  @Override
  public boolean hasEncodedViews() {
    return encoded;
  }

  @Override
  public void close() {
    for (InternalIterator s : sources) {
      s.close();
    }
    forward.clear();
    backward.clear();
    current = null;
  }

  /** Makes {@code direction} the heap of every positioned source, and its top the current one. */
  private void rebuild(PriorityQueue<InternalIterator> direction) {
    forward.clear();
    backward.clear();
    heap = direction;
    for (InternalIterator s : sources) {
      offer(s);
    }
    current = heap.poll();
  }

  private void offer(InternalIterator s) {
    if (s.isValid()) {
      heap.add(s);
    }
  }
}
