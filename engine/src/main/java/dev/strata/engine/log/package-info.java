/**
 * The write-ahead log: every write or batch is one checksummed record ({@link
 * dev.strata.engine.log.LogFormat}), appended by {@link dev.strata.engine.log.LogWriter} before the
 * write is applied to the memtable, and replayed on open by {@link
 * dev.strata.engine.log.LogReader}, which drops a torn tail and fails on any other damage; {@link
 * dev.strata.engine.log.LogReplay} replays all the logs of a database as one history under a
 * recovery mode (the longest consistent prefix by default). {@link
 * dev.strata.engine.log.BatchCodec} turns a batch of mutations into a record payload and back.
 *
 * <p>Layering: depends on {@code dev.strata.engine.write} (mutations and limits), {@code
 * dev.strata.engine.fs}, the public exception types and {@code WalRecoveryMode} of {@code
 * dev.strata.engine}, {@code
 * dev.strata.sstable} (kinds and sequence bounds) and {@code dev.strata.checksum}.
 *
 * <pre>{@code
 * try (LogWriter log = LogWriter.create(FileNames.log(dir, 13), 13, options.syncWrites())) {
 *   log.append(BatchCodec.encode(lastSequence + 1, mutations));   // durable per syncWrites
 * }
 * try (LogReader reader = LogReader.open(FileNames.log(dir, 13), 13)) {
 *   for (LogRecord r; (r = reader.nextRecord()) != null; ) {
 *     for (int i = 0; i < r.mutations().size(); i++) {
 *       Mutation m = r.mutations().get(i);
 *       memtable.add(m.key(r.firstSequence() + i), m.value());
 *     }
 *   }
 * }
 * }</pre>
 */
package dev.strata.engine.log;
