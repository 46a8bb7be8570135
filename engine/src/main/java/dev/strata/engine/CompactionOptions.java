package dev.strata.engine;

/**
 * Leveled compaction: whether it runs on its own, what triggers it, how it is parallelized and the
 * shape of the levels it maintains. Each component is set by the {@link DbOptions.Builder} method
 * of the same name; the constructor rejects a value out of range with an {@link
 * IllegalArgumentException} naming it.
 *
 * <p>Immutable.
 *
 * @param autoCompaction whether compactions run in the background on their own; default true
 * @param level0CompactionTrigger level-0 table count that triggers a compaction into level 1, in
 *     [1, {@value #MAX_LEVEL0_COMPACTION_TRIGGER}]; default 4
 * @param maxSubcompactions key-range jobs a level-0 compaction may be cut into and run in
 *     parallel, each on a thread of its own but the first (RocksDB's {@code max_subcompactions}),
 *     in [1, {@value #MAX_SUBCOMPACTIONS}]; default 1, one job
 * @param readTriggeredCompactionBytesPerRead read-triggered compaction of level 0 (see {@code
 *     compaction.ReadTrigger}): the bytes of compaction input one wasted read of a level-0 table is
 *     worth, at least 0. Once Gets have searched the blocks of level-0 tables that did not hold
 *     their key (past a filter that admitted it: a probe the filter turns away is not a read) and
 *     seeks have positioned on level-0 tables that many times over (the level-0 tables and the
 *     level-1 tables they overlap, divided by this; at least 100) with writes quiet, and no
 *     write-driven compaction is due, level 0 is compacted into level 1. Default 16 KiB (LevelDB's
 *     {@code allowed_seeks}: one seek per 16 KiB of a table); 0 turns it off. Only with {@code
 *     autoCompaction}
 * @param levelSizeMultiplier size ratio between consecutive levels from level 1 down, in [{@value
 *     #MIN_LEVEL_SIZE_MULTIPLIER}, {@value #MAX_LEVEL_SIZE_MULTIPLIER}]; default 10
 * @param targetFileSizeBytes size at which a compaction starts a new output table, at least 1
 *     byte; default 64 MiB
 * @param maxBytesForLevelBase target total size of level 1, at least 1 byte; each deeper level
 *     gets {@code levelSizeMultiplier} times more; default 256 MiB
 */
public record CompactionOptions(
    boolean autoCompaction,
    int level0CompactionTrigger,
    int maxSubcompactions,
    long readTriggeredCompactionBytesPerRead,
    int levelSizeMultiplier,
    long targetFileSizeBytes,
    long maxBytesForLevelBase) {

  /** Largest level-0 table count that may be configured to trigger a compaction. */
  public static final int MAX_LEVEL0_COMPACTION_TRIGGER = 1 << 16;

  /** Upper bound of {@link #maxSubcompactions()}. */
  public static final int MAX_SUBCOMPACTIONS = 64;

  /** Smallest growth factor between levels: below two, leveling degenerates. */
  public static final int MIN_LEVEL_SIZE_MULTIPLIER = 2;

  /** Largest growth factor between levels. */
  public static final int MAX_LEVEL_SIZE_MULTIPLIER = 1000;

  /** Checks every component's range. */
  public CompactionOptions {
    OptionRanges.check(
        "level0CompactionTrigger", level0CompactionTrigger, 1, MAX_LEVEL0_COMPACTION_TRIGGER);
    OptionRanges.check("maxSubcompactions", maxSubcompactions, 1, MAX_SUBCOMPACTIONS);
    OptionRanges.check(
        "readTriggeredCompactionBytesPerRead",
        readTriggeredCompactionBytesPerRead,
        0,
        Long.MAX_VALUE);
    OptionRanges.check(
        "levelSizeMultiplier",
        levelSizeMultiplier,
        MIN_LEVEL_SIZE_MULTIPLIER,
        MAX_LEVEL_SIZE_MULTIPLIER);
    OptionRanges.check("targetFileSizeBytes", targetFileSizeBytes, 1, Long.MAX_VALUE);
    OptionRanges.check("maxBytesForLevelBase", maxBytesForLevelBase, 1, Long.MAX_VALUE);
  }
}
