package dev.strata.engine;

import dev.strata.engine.write.Limits;
import java.io.IOException;
import java.io.UncheckedIOException;
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
 * write.BulkLoads}). Nothing else changes for writes made through the database: every one is
 * logged and acknowledged as before, and reads see exactly what they would see without the load.
 *
 * <h2>Writes that skip the log</h2>
 *
 * {@link #write} applies a batch through the load without writing it to the log (RocksDB's {@code
 * disableWAL}), for a load whose source can replay what a crash loses: a Kafka Streams changelog,
 * whose offsets go in the same batch as the records they cover. Such a write is in the memtable
 * only, and durable once a flush has written it to a table; reads see it at once, like any write.
 * The rules, which together keep what a crash leaves a prefix of the acknowledged history:
 *
 * <ul>
 *   <li>{@link #close} flushes every memtable holding the load's unlogged writes before it returns
 *       (as {@link Db#flush} does): after it, every write through the load that returned before
 *       close was called survives a crash or a power loss.
 *   <li>A logged write (any write through the database, commit markers included) that follows an
 *       unlogged one first freezes the memtable and waits for the flushes that put every unlogged
 *       write before it in a table. So a logged write is never durable while an earlier unlogged
 *       one can still be lost: the history never has a hole.
 *   <li>A crash or power loss before then keeps a prefix of the writes: each unlogged batch whole
 *       or not at all, with the commit markers written with it, never one without an earlier one.
 *       Flushes complete in the order memtables were frozen, so what survives is every write up to
 *       some point: the writes logged before the load, then the unlogged batches of the memtables
 *       flushed so far.
 *   <li>{@link Db#syncWal} forces the log only: it makes no unlogged write durable.
 *   <li>{@link Db#close} with the load still open forces the logs but flushes nothing: the unlogged
 *       writes not yet in a table are dropped, as a crash would drop them. Close the load first.
 *   <li>A batch of commit markers alone is logged anyway: no flush could carry its markers without
 *       an entry.
 * </ul>
 *
 * <p>Loads may overlap; the largest trigger of those open applies. Thread-safe.
 */
public final class BulkLoad implements AutoCloseable {
  private final EngineState state;
  private final BackgroundWork background;
  private final WritePath writePath;
  private final int level0Tables;
  private final AtomicBoolean closed = new AtomicBoolean();
  /** Set by the first write through the load: close() then flushes. */
  private volatile boolean wroteUnlogged;

  BulkLoad(EngineState state, BackgroundWork background, WritePath writePath, int level0Tables) {
    OptionRanges.check(
        "level0CompactionTrigger", level0Tables, 1, CompactionOptions.MAX_LEVEL0_COMPACTION_TRIGGER);
    this.state = state;
    this.background = background;
    this.writePath = writePath;
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
   * Applies {@code batch}, its commit markers included, atomically, without writing it to the log:
   * it is durable once flushed, at the latest when the load is closed (see the class comment).
   *
   * @throws IllegalStateException when the load or the database is closed
   */
  public void write(WriteBatch batch) throws IOException {
    Limits.requireNonNull(batch, "batch");
    if (closed.get()) {
      throw new IllegalStateException("the bulk load is closed");
    }
    state.ensureOpen();
    if (!batch.isEmpty()) {
      wroteUnlogged = true; // before the write: a close racing it flushes, at worst needlessly
      writePath.write(batch.mutations(), batch.markerUpdates(), false);
    }
  }

  /**
   * Ends the load: level 0 is compacted at the trigger the other open loads ask for, or at the
   * configured one, from now on; then, when writes were made through the load, flushes every
   * memtable holding them and returns once they are in tables. Idempotent; harmless after the
   * database is closed (which dropped what was not flushed: see the class comment).
   *
   * @throws UncheckedIOException when the flush failed: the unlogged writes are not durable, and a
   *     later logged write fails or waits until a flush succeeds
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    end();
    if (wroteUnlogged && !state.closing) {
      try {
        writePath.flush();
      } catch (IllegalStateException closedMeanwhile) {
        if (!state.closing) {
          throw closedMeanwhile;
        }
      } catch (IOException e) {
        throw new UncheckedIOException("flush of the bulk load's unlogged writes failed", e);
      }
    }
  }

  private void end() {
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
