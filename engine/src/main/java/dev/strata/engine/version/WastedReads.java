package dev.strata.engine.version;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Consumer;

/**
 * Counts the reads one state of level 0 wastes, and says once when they pass a budget: a Get
 * charges every level-0 table whose index and data blocks it searched without deciding its key (a
 * filter false positive, or a table without a filter), a seek or scan every level-0 table it
 * positions on (an index partition and a data block more). A Get whose probe a level-0 table's
 * filter turns away charges nothing: that probe is one cache line of a filter chunk, about a
 * hundredth of the block read a charge is priced at (the budget's bytes of compaction per read),
 * so charging it made every open with a level-0 table and quiet writes compact level 0 within
 * the first tens of thousands of Gets, a rewrite of hundreds of megabytes that only reads going on
 * for far longer pay back. The read-triggered compaction ({@code compaction.ReadTrigger}) arms one
 * per state of level 0 and compacts level 0 once its budget is spent (LevelDB's {@code
 * allowed_seeks}, counted per level rather than per table, since a level-0 compaction takes all of
 * level 0 anyway).
 *
 * <p>Charged by every reader thread, so it must not make them write one shared line (see {@link
 * StripedRefCount}): each thread adds to a stripe of its own, and sums the stripes only when its own
 * count crosses a multiple of {@code stride}, so at most {@code STRIPES * stride} charges pass
 * unseen and the budget is overshot by at most that (half the budget at most). Once the budget is
 * spent, {@code onSpent} runs once, on the reader that saw it (it must not block), and charging stops: later reads
 * only read a flag no one writes any more.
 *
 * <p>Thread-safe.
 */
public final class WastedReads {
  /** Stripes: a power of two, as in {@link StripedRefCount}. */
  private static final int STRIPES = 8;

  /** Most charges a stripe takes between two sums. */
  private static final long MAX_STRIDE = 64;

  /** Counts nothing and never fires: level 0 empty, or read-triggered compaction off. */
  public static final WastedReads NONE = new WastedReads();

  private final long budget;
  private final long stride;
  private final Consumer<WastedReads> onSpent;
  private final AtomicLongArray counts;
  private final AtomicBoolean fired;

  /** Set once the budget is spent; read on every charge, written once. */
  private volatile boolean spent;

  /**
   * Reads that pass themselves to {@code onSpent} once their count reaches {@code budget} (at least
   * 1).
   */
  public WastedReads(long budget, Consumer<WastedReads> onSpent) {
    if (budget < 1) {
      throw new IllegalArgumentException("budget must be at least 1: " + budget);
    }
    this.budget = budget;
    this.stride = Math.max(1, Math.min(MAX_STRIDE, budget / (2 * STRIPES)));
    this.onSpent = onSpent;
    this.counts = new AtomicLongArray(StripedRefCount.arrayLength(STRIPES));
    this.fired = new AtomicBoolean();
  }

  private WastedReads() {
    this.budget = Long.MAX_VALUE;
    this.stride = MAX_STRIDE;
    this.onSpent = w -> {};
    this.counts = new AtomicLongArray(0);
    this.fired = new AtomicBoolean(true);
    this.spent = true;
  }

  /** Charges {@code reads} wasted reads (none when 0). */
  public void charge(int reads) {
    if (reads <= 0 || spent) {
      return;
    }
    int s = StripedRefCount.slot(StripedRefCount.stripeOfThisThread(STRIPES)); // padded as there
    long after = counts.addAndGet(s, reads);
    if (after / stride != (after - reads) / stride && total() >= budget) {
      spent = true;
      if (fired.compareAndSet(false, true)) {
        onSpent.accept(this);
      }
    }
  }

  /** The reads charged so far (those charged while the budget was being spent, at most). */
  public long total() {
    long sum = 0;
    for (int i = 0; i < STRIPES && counts.length() > 0; i++) {
      sum += counts.get(StripedRefCount.slot(i));
    }
    return sum;
  }

  /** The charges after which {@code onSpent} runs. */
  public long budget() {
    return budget;
  }

  /** True once the budget is spent (or for {@link #NONE}). */
  public boolean spent() {
    return spent;
  }
}
