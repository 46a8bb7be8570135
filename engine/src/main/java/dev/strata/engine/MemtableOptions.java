package dev.strata.engine;

import dev.strata.engine.write.Limits;

/**
 * The memtable and the write-ahead log behind it: when the memtable is flushed, whether each write
 * forces the log, and what open does with a damaged log. Each component is set by the {@link
 * DbOptions.Builder} method of the same name; the constructor rejects a value out of range with an
 * {@link IllegalArgumentException} naming it.
 *
 * <p>Immutable.
 *
 * @param memtableBytes memtable size at which it is frozen and flushed to a level-0 table, at least
 *     1 byte (tiny values make tests flush constantly); default 64 MiB
 * @param syncWrites whether every write fsyncs the log before it returns; default false (written
 *     to the operating system only)
 * @param walRecovery what open does with damaged logs ({@link WalRecoveryMode}); default {@link
 *     WalRecoveryMode#POINT_IN_TIME}: the longest consistent prefix, with the rest dropped and
 *     reported
 */
public record MemtableOptions(long memtableBytes, boolean syncWrites, WalRecoveryMode walRecovery) {

  /** Checks every component's range. */
  public MemtableOptions {
    OptionRanges.check("memtableBytes", memtableBytes, 1, Long.MAX_VALUE);
    Limits.requireNonNull(walRecovery, "walRecovery");
  }
}
