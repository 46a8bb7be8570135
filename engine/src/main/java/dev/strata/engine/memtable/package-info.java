/**
 * The memtable: the concurrent, sorted in-memory table that takes writes after the log and serves
 * the newest data to reads until it is frozen and flushed ({@link
 * dev.strata.engine.memtable.MemTable}) and its ordered cursor ({@link
 * dev.strata.engine.memtable.MemTableIterator}). A point lookup answers with the same {@code
 * GetResult} a table gives, so one rule ({@code dev.strata.engine.read.Verdict}) decides for both.
 *
 * <p>Entries are not objects: they are encoded into an arena of direct-memory chunks ({@link
 * dev.strata.engine.memtable.Arena}) and indexed by a single-writer, lock-free-reader skip list
 * whose nodes are packed in an arena of their own, so that a search's steps stay in the
 * processor's caches ({@link dev.strata.engine.memtable.ArenaSkipList}). A memtable's charge
 * against its budget is the bytes it really occupies, so a
 * memtable frozen at 64 MiB flushes about 64 MiB of entries; the collector sees a few dozen chunk
 * objects per memtable and never copies their bytes. The chunks come from the database's {@link
 * dev.strata.engine.memtable.MemTableMemory}, which takes them back, for the next memtable, once
 * the last read of a flushed memtable is done ({@code MemTable.retain} / {@code release}).
 *
 * <p>Layering: depends on {@code dev.strata.sstable} ({@code InternalKey}, {@code ValueKind}, {@code
 * GetResult}) only.
 *
 * <pre>{@code
 * MemTable mem = new MemTable(); // standalone: memory of its own
 * mem.add(new InternalKey(row, column, 7, ValueKind.PUT), value);
 * GetResult hit = mem.get(row, column, snapshot);
 * switch (Verdict.of(hit)) {
 *   case FOUND -> { return hit.value(); }
 *   case DELETED -> { return null; }
 *   case UNKNOWN -> { } // ask the immutable memtables, then the tables
 * }
 * }</pre>
 */
package dev.strata.engine.memtable;
