package dev.strata.engine;

import dev.strata.engine.write.BulkLoads;
import dev.strata.engine.write.WriteController;

/**
 * When writes are slowed down or stopped so that compaction keeps up: level-0 table counts,
 * estimated compaction debt, and the rate a slowed-down writer starts at (RocksDB's write stalls
 * and defaults). Without {@link CompactionOptions#autoCompaction()} no write is held back. Each
 * component is set by the {@link DbOptions.Builder} method of the same name; the constructor
 * rejects a value out of range with an {@link IllegalArgumentException} naming it.
 *
 * <p>Immutable.
 *
 * @param level0SlowdownTrigger level-0 tables at which each write group starts to be delayed, in
 *     [1, {@value CompactionOptions#MAX_LEVEL0_COMPACTION_TRIGGER}]; default 20. Raised to the
 *     compaction trigger when below it
 * @param level0StopTrigger level-0 tables at which writes stop until compaction catches up, in [1,
 *     {@value CompactionOptions#MAX_LEVEL0_COMPACTION_TRIGGER}]; default 36. Raised to the slowdown
 *     trigger when below it; level 0 never holds more tables
 * @param softPendingCompactionBytesLimit estimated bytes compaction still has to rewrite at which
 *     writes slow down, at least 0 (0 = no limit); default 64 GiB
 * @param hardPendingCompactionBytesLimit estimated bytes compaction still has to rewrite at which
 *     writes stop, at least 0 (0 = no limit); default 256 GiB
 * @param delayedWriteRate bytes per second a slowed-down writer may still write at the start of a
 *     slowdown, at least 1; default 16 MiB. The rate falls to a sixteenth of it as the stop trigger
 *     nears
 */
public record WriteStallOptions(
    int level0SlowdownTrigger,
    int level0StopTrigger,
    long softPendingCompactionBytesLimit,
    long hardPendingCompactionBytesLimit,
    long delayedWriteRate) {

  /** Checks every component's range. */
  public WriteStallOptions {
    int maxTrigger = CompactionOptions.MAX_LEVEL0_COMPACTION_TRIGGER;
    OptionRanges.check("level0SlowdownTrigger", level0SlowdownTrigger, 1, maxTrigger);
    OptionRanges.check("level0StopTrigger", level0StopTrigger, 1, maxTrigger);
    OptionRanges.check(
        "softPendingCompactionBytesLimit", softPendingCompactionBytesLimit, 0, Long.MAX_VALUE);
    OptionRanges.check(
        "hardPendingCompactionBytesLimit", hardPendingCompactionBytesLimit, 0, Long.MAX_VALUE);
    OptionRanges.check("delayedWriteRate", delayedWriteRate, 1, Long.MAX_VALUE);
  }

  /**
   * The write controller these options ask for, with {@code compaction}'s. Like RocksDB, it
   * sanitizes the triggers rather than rejecting a combination: the slowdown trigger is raised to
   * at least the compaction trigger and the stop trigger to at least the slowdown trigger, since
   * writes stopped before level 0 is big enough to be compacted would wait forever. Without
   * automatic compaction it lets every write through.
   */
  WriteController controller(CompactionOptions compaction, BulkLoads bulkLoads) {
    int slowdown = Math.max(level0SlowdownTrigger, compaction.level0CompactionTrigger());
    int stop = Math.max(level0StopTrigger, slowdown);
    long hard = hardPendingCompactionBytesLimit;
    long soft = hard == 0 ? softPendingCompactionBytesLimit : Math.min(softPendingCompactionBytesLimit, hard);
    return new WriteController(
        compaction.autoCompaction(), slowdown, stop, soft, hard, delayedWriteRate, bulkLoads);
  }

  /** The bulk loads of a database opened with these options and {@code compaction}'s, none open. */
  BulkLoads bulkLoads(CompactionOptions compaction) {
    int trigger = compaction.level0CompactionTrigger();
    return new BulkLoads(trigger, Math.max(level0SlowdownTrigger, trigger));
  }
}
