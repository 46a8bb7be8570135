/**
 * How table files are read: {@link dev.strata.sstable.io.TableFile} (positional reads shared by
 * every reader thread, surviving a reader's interrupt, optionally {@code O_DIRECT}), {@link
 * dev.strata.sstable.io.DirectReads} (the aligned spans and per-thread aligned buffers {@code
 * O_DIRECT} needs), {@link dev.strata.sstable.io.BulkReadahead} (a bulk pass's read-ahead window,
 * RocksDB's {@code compaction_readahead_size}) and {@link dev.strata.sstable.io.BulkBuffers} (the
 * reused block buffers of a bulk pass). Pebble's {@code objstorage} readables play this part.
 *
 * <p>Invariants: only {@code TableFile.close()} closes a file for good (a channel an interrupt
 * closed is reopened and the read retried); a read that comes up short raises {@code
 * CorruptTableException} naming the file and offset; a direct read copies exactly the wanted bytes
 * out of its aligned span. Nothing here parses or verifies a block; the reader above does.
 *
 * <p>Layering: depends on {@code format} only (its exception); the root's {@code TableReader} and
 * {@code TableCursor} use it. Internal to the storage core, not part of the embedding API.
 *
 * <pre>{@code
 * try (TableFile f = TableFile.open(path, directReads)) {
 *   byte[] footer = f.readFully(f.size() - SstableFormat.FOOTER_BYTES, SstableFormat.FOOTER_BYTES);
 * }
 * }</pre>
 *
 * <p>Concurrency: a {@code TableFile} is thread-safe; read-ahead windows and bulk buffers belong to
 * one bulk cursor.
 */
package dev.strata.sstable.io;
