/**
 * Strata's public API: the embedded LSM key-value store {@code Db}, its options ({@link
 * dev.strata.engine.DbOptions}, grouped in records such as {@link dev.strata.engine.FilterOptions}
 * and {@link dev.strata.engine.CompactionOptions}, with {@link dev.strata.engine.BloomType} and
 * {@link dev.strata.engine.Compression}), atomic batches ({@link dev.strata.engine.WriteBatch}), scans
 * ({@link dev.strata.engine.CellScanner} over {@link dev.strata.engine.Cell}s), read-path counters
 * ({@link dev.strata.engine.DbStats}) and the checked exceptions for damaged or unreadable files
 * ({@link dev.strata.engine.CorruptionException}, {@link
 * dev.strata.engine.FormatVersionException}). Everything in the sub-packages is internal.
 *
 * <p>Layering: the top of the storage stack. Depends on {@code dev.strata.sstable} (and through it
 * {@code dev.strata.bloom}); its internals are split by concern: {@code write} (mutations and
 * limits), {@code log} (write-ahead log), {@code memtable}, {@code manifest} and {@code fs} (file
 * names, directory lock, durable file replacement).
 *
 * <p>Inside this package (RocksDB splits DBImpl the same way across db_impl_*.cc), {@code Db} is the
 * facade: it checks arguments and delegates. The state the parts share (memtables, logs, the current
 * version, the published view and the last sequence) is {@code EngineState}, guarded by its one
 * mutex; reads never take it: they acquire the volatile view, then read the volatile last sequence
 * as their snapshot. A write is visible once the last sequence covers it, which is published only
 * after its entries are in the memtable, so a read never sees half a batch. {@code WritePath} runs
 * the write group; {@code BackgroundWork} schedules, runs and installs flushes and compactions;
 * {@code Startup} takes what {@code Recovery} found on disk into the engine state; {@code Reads}
 * serves the read entry points; {@code Statistics} gathers the counters; {@code Shutdown} lets
 * everything go. Each states its own concurrency rules.
 *
 * <pre>{@code
 * DbOptions options = DbOptions.builder().bloomType(BloomType.ROWCOL).syncWrites(true).build();
 * try (Db db = Db.open(Path.of("/var/lib/app/db"), options)) {
 *   db.put("user:1".getBytes(UTF_8), "name".getBytes(UTF_8), "Ada".getBytes(UTF_8));
 *   db.write(new WriteBatch().put(row, col, value).deleteRow(otherRow));   // all or nothing
 *   byte[] name = db.get("user:1".getBytes(UTF_8), "name".getBytes(UTF_8));
 *   try (CellScanner cells = db.scan(null, null)) {
 *     cells.forEachRemaining(c -> System.out.println(c));
 *   }
 * }
 * }</pre>
 */
package dev.strata.engine;
