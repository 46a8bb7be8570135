package dev.strata.engine.write;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * LevelDB's writer queue, which is how group commit happens. Every writing thread queues its batch
 * and waits. The thread at the head becomes the leader: it takes the batches queued behind it (up to
 * a byte budget) as one group, writes them with one log write (and one fsync), and {@link #finish
 * finishes} the group, which wakes each member's thread with the outcome and hands the head to the
 * next writer. A barrier (a request to freeze the memtable) always forms a group alone, so no batch
 * is grouped across it.
 *
 * <pre>{@code
 * mutex.lock();
 * Writer head = queue.enqueue(mutations);   // null: another leader wrote it
 * if (head != null) {
 *   List<Writer> group = queue.group(head);
 *   Throwable failure = null;
 *   try { write(group); } catch (Throwable t) { failure = t; throw t; }
 *   finally { queue.finish(group, failure); }
 * }
 * }</pre>
 *
 * <p>Thread-safety: guarded by the database mutex passed in; every method is called with it held.
 * The leader may release the mutex while it writes: the group stays at the head of the queue, so no
 * other thread leads meanwhile.
 */
public final class WriterQueue {
  private final ReentrantLock mutex;
  private final long maxGroupBytes;
  /** Runs, with the mutex held, whenever the queue becomes empty (a closing database waits for it). */
  private final Runnable onDrained;

  @GuardedBy("mutex")
  private final ArrayDeque<Writer> queue = new ArrayDeque<>();

  /**
   * Each thread's writer, reused from one write to the next (a thread has one write in flight at a
   * time): a write then allocates no writer, condition or group list.
   */
  private final ThreadLocal<Writer> threadWriters;

  /** One queued write: a batch of mutations, or a barrier. */
  public static final class Writer {
    private final Condition turn;
    /** The group of this writer alone, the usual group: made once, not per write. */
    private final List<Writer> alone = List.of(this);
    private List<Mutation> mutations;
    private List<MarkerUpdate> markers = List.of();
    /** False for a batch that skips the log (a bulk load's): see {@link #logged}. */
    private boolean logged = true;
    /** True from enqueue until the write's outcome is taken: the thread's writer is busy. */
    private boolean queued;
    private boolean done;
    private IOException error;

    private Writer(Condition turn) {
      this.turn = turn;
    }

    /** True for a barrier, which carries no mutations. */
    public boolean isBarrier() {
      return mutations == null;
    }

    /** The batch; never called on a barrier. */
    public List<Mutation> mutations() {
      assert mutations != null : "a barrier has no mutations";
      return mutations;
    }

    /** The batch's commit marker updates (empty for most); never called on a barrier. */
    public List<MarkerUpdate> markers() {
      return markers;
    }

    /**
     * True when the batch carries commit markers: it then leads a group of its own, so that its
     * check against the database's marker limit sees the markers of every write before it.
     */
    public boolean hasMarkers() {
      return !markers.isEmpty();
    }

    /**
     * False for a batch that skips the log: it leads a group of its own, so a group is either
     * logged whole or not at all.
     */
    public boolean logged() {
      return logged;
    }

    /** The group of this writer alone (an immutable list, the same every time). */
    public List<Writer> alone() {
      return alone;
    }

    /** What the batch costs against the group budget: its bytes plus a fixed cost per mutation. */
    public long bytes() {
      long n = 0;
      for (int i = 0; i < mutations.size(); i++) { // indexed: no iterator on the write path
        Mutation m = mutations.get(i);
        n += m.row().length + m.column().length + m.value().length + 16;
      }
      return n;
    }
  }

  /**
   * @param maxGroupBytes the byte budget of one group (LevelDB uses 1 MiB); the head always goes in
   * @param onDrained runs with the mutex held whenever the last writer leaves the queue
   */
  public WriterQueue(ReentrantLock mutex, long maxGroupBytes, Runnable onDrained) {
    this.mutex = mutex;
    this.maxGroupBytes = maxGroupBytes;
    this.onDrained = onDrained;
    this.threadWriters = ThreadLocal.withInitial(() -> new Writer(mutex.newCondition()));
  }

  /**
   * Queues {@code mutations} (null: a barrier) and waits. Returns null once a leader wrote them, or
   * the writer when it reached the head unwritten: the calling thread then leads, and must {@link
   * #finish} the group it writes.
   *
   * @throws IOException the failure of the group a leader wrote them in
   */
  @GuardedBy("mutex")
  public Writer enqueue(List<Mutation> mutations) throws IOException {
    return enqueue(mutations, List.of());
  }

  /** As {@link #enqueue(List)}, the batch carrying the commit marker updates {@code markers}. */
  @GuardedBy("mutex")
  public Writer enqueue(List<Mutation> mutations, List<MarkerUpdate> markers) throws IOException {
    return enqueue(mutations, markers, true);
  }

  /**
   * As {@link #enqueue(List, List)}; {@code logged} false for a batch that skips the log, which
   * then groups with no other batch.
   */
  @GuardedBy("mutex")
  public Writer enqueue(List<Mutation> mutations, List<MarkerUpdate> markers, boolean logged)
      throws IOException {
    assert mutex.isHeldByCurrentThread();
    Writer w = threadWriters.get();
    if (w.queued) { // a write from inside a write (a hook under the mutex): a writer of its own
      w = new Writer(mutex.newCondition());
    }
    w.mutations = mutations;
    w.markers = markers;
    w.logged = logged;
    w.queued = true;
    w.done = false;
    w.error = null;
    queue.addLast(w);
    while (!w.done && queue.peekFirst() != w) {
      w.turn.awaitUninterruptibly();
    }
    if (!w.done) {
      return w; // the leader's own outcome: finish() releases the writer
    }
    release(w);
    if (w.error != null) {
      IOException error = w.error;
      w.error = null;
      throw error;
    }
    return null;
  }

  /** Makes the writer reusable by its thread and drops its references to the caller's arrays. */
  private static void release(Writer w) {
    w.mutations = null;
    w.markers = List.of();
    w.logged = true;
    w.queued = false;
  }

  /**
   * The group {@code head} leads: itself and the batches queued behind it, in order, while they fit
   * the byte budget and up to the first barrier, batch with commit markers or batch that skips the
   * log. A barrier, a batch with commit markers and a batch that skips the log each lead alone.
   */
  @GuardedBy("mutex")
  public List<Writer> group(Writer head) {
    assert mutex.isHeldByCurrentThread() && queue.peekFirst() == head;
    if (head.isBarrier() || head.hasMarkers() || !head.logged || queue.size() == 1) {
      return head.alone(); // the common case of an uncontended write allocates no list
    }
    List<Writer> group = new ArrayList<>(Math.min(queue.size(), 16));
    group.add(head);
    long bytes = head.bytes();
    for (Writer w : queue) {
      if (w == head) {
        continue;
      }
      if (w.isBarrier() || w.hasMarkers() || !w.logged || bytes + w.bytes() > maxGroupBytes) {
        break;
      }
      group.add(w);
      bytes += w.bytes();
    }
    return group;
  }

  /**
   * Takes {@code group} off the queue and wakes its other members: with success when {@code
   * failure} is null, else with it (wrapped unless an IOException); then wakes the next head. The
   * leader, the group's first writer and the calling thread's, reports its own outcome itself; its
   * writer is free for its next write once this returns.
   */
  @GuardedBy("mutex")
  public void finish(List<Writer> group, Throwable failure) {
    assert mutex.isHeldByCurrentThread();
    IOException error =
        failure == null || failure instanceof IOException
            ? (IOException) failure
            : new IOException("the group's write failed: " + failure, failure);
    for (int i = 0; i < group.size(); i++) {
      Writer w = group.get(i);
      queue.remove(w);
      if (i == 0) {
        release(w); // the leader's: nobody waits on it
        continue;
      }
      w.done = true;
      w.error = error;
      w.turn.signal();
    }
    Writer next = queue.peekFirst();
    if (next != null) {
      next.turn.signal();
    } else {
      onDrained.run();
    }
  }

  /** Writes queued or being written. */
  @GuardedBy("mutex")
  int size() {
    assert mutex.isHeldByCurrentThread();
    return queue.size();
  }

  /** True when no write is queued or being written. */
  @GuardedBy("mutex")
  public boolean isEmpty() {
    assert mutex.isHeldByCurrentThread();
    return queue.isEmpty();
  }
}
