package dev.strata.engine;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A bulk load open on a database ({@link Db#bulkLoad}): until it is closed, level 0 is compacted
 * only once it holds {@link #level0CompactionTrigger()} tables, and the level-0 write stalls rise by
 * as many tables as the trigger did, so writes are held back only as far past the new trigger as
 * they were past the old one. For writes in random key order (a Kafka Streams changelog restored
 * from a compacted topic, an import): every table they flush spans the whole key range, so every
 * level-0 compaction would rewrite all of level 1 with a few tables' worth of new data.
 *
 * <p>What it costs: Gets and scans consult each level-0 table (newest first, each behind its
 * filter), so reads during a load may consult that many more tables; and compaction's work is
 * deferred, not dropped: once the load ends, level 0 is compacted at the configured trigger again,
 * and writes are not stopped for the tables the load left while that compaction runs (see {@code
 * write.BulkLoads}). Nothing else changes: every write is logged and acknowledged as before, and
 * reads see exactly what they would see without the load.
 *
 * <p>Loads may overlap; the largest trigger of those open applies. Thread-safe.
 */
public final class BulkLoad implements AutoCloseable {
  private final EngineState state;
  private final BackgroundWork background;
  private final int level0Tables;
  private final AtomicBoolean closed = new AtomicBoolean();

  BulkLoad(EngineState state, BackgroundWork background, int level0Tables) {
    OptionRanges.check(
        "level0CompactionTrigger", level0Tables, 1, CompactionOptions.MAX_LEVEL0_COMPACTION_TRIGGER);
    this.state = state;
    this.background = background;
    this.level0Tables = level0Tables;
    state.mutex.lock();
    try {
      state.bulkLoads.begin(level0Tables);
      state.backgroundProgress.signalAll(); // writers stopped at the old stop trigger go on
    } finally {
      state.mutex.unlock();
    }
  }

  /** The level-0 table count this load defers compaction to. */
  public int level0CompactionTrigger() {
    return level0Tables;
  }

  /**
   * Ends the load: level 0 is compacted at the trigger the other open loads ask for, or at the
   * configured one, from now on. Idempotent; harmless after the database is closed.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    state.mutex.lock();
    try {
      state.bulkLoads.end(level0Tables);
      background.schedule(); // a level-0 compaction may be due at the lower trigger
      state.backgroundProgress.signalAll();
    } finally {
      state.mutex.unlock();
    }
  }
}
