package dev.strata.engine;

/**
 * What {@link Db#open} does when the logs it replays are damaged: RocksDB's WAL recovery modes,
 * the two that never replay data from after a gap. Set with {@link
 * DbOptions.Builder#walRecovery(WalRecoveryMode)}.
 *
 * <p>The modes govern the logs only. The manifest is read the same way under both: a last record cut
 * short by a crash is dropped, any other damage is corruption, and the open then checks that the
 * logs and tables the manifest needs are all there (RocksDB likewise fails the open on any damage
 * to its MANIFEST).
 *
 * <p>The logs of a database hold one history: every write has a sequence number one above the
 * write before it, across log files. A crash can leave that history cut short (the process died in
 * the middle of a write: the last record of the newest log is torn) or, after a power loss with
 * {@code syncWrites(false)}, with a hole: the operating system wrote some pages of a log back and
 * not others, or a newer log reached the disk while an older one did not. Whatever is behind a hole
 * is data from after the gap; replaying it would give a state the database was never in.
 */
public enum WalRecoveryMode {
  /**
   * The default: replay the longest consistent prefix of the history, across all logs, and drop
   * the rest. At the first record that cannot be read (torn, damaged, or not the successor of the
   * record before it), replay stops; that record, every later record of its log and every newer log
   * are dropped, and the drop is reported (bytes, records, files) through {@link System.Logger} and
   * {@link DbStats#recovery()}. Every write that was forced to disk before the power went is in the
   * prefix: damage can only hit what was never forced. A log the manifest records as
   * forced (a clean close forces its logs and records them) is never cut: damage before its forced
   * length fails the open with {@link CorruptionException}, since those writes were durable.
   */
  POINT_IN_TIME,

  /**
   * Drop nothing but a torn last record of the newest log (a process killed mid-write, which the
   * contract allows), and not even that within a length the manifest records as forced; any other
   * damage or gap fails the open with {@link CorruptionException}, naming the file and the offset,
   * and the files are left as they are.
   */
  ABSOLUTE_CONSISTENCY
}
