/**
 * The memtable: the concurrent, sorted in-memory table that takes writes after the log and serves
 * the newest data to reads until it is frozen and flushed ({@link
 * dev.strata.engine.memtable.MemTable}), with its point lookup result ({@link
 * dev.strata.engine.memtable.MemTableLookup}) and ordered cursor ({@link
 * dev.strata.engine.memtable.MemTableIterator}).
 *
 * <p>Layering: depends on {@code dev.strata.sstable} ({@code InternalKey}, {@code ValueKind}) only.
 *
 * <pre>{@code
 * MemTable mem = new MemTable();
 * mem.add(new InternalKey(row, column, 7, ValueKind.PUT), value);
 * MemTableLookup hit = mem.get(row, column, snapshot);
 * switch (hit.verdict()) {
 *   case FOUND -> { return hit.value(); }
 *   case DELETED -> { return null; }
 *   case UNKNOWN -> { } // ask the immutable memtables, then the tables
 * }
 * }</pre>
 */
package dev.strata.engine.memtable;
