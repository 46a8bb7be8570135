/**
 * What a write is, shared by the public {@code WriteBatch}, the log and the engine: {@link
 * dev.strata.engine.write.Mutation}, the size limits, and the one argument check every entry point
 * applies ({@link dev.strata.engine.write.Limits}); and the writer queue that groups concurrent
 * writes into one log write ({@link dev.strata.engine.write.WriterQueue}).
 *
 * <p>Layering: depends on {@code dev.strata.sstable} (for {@code InternalKey} and {@code
 * ValueKind}) and nothing else; {@code dev.strata.engine} and {@code dev.strata.engine.log} build
 * on it.
 *
 * <pre>{@code
 * Limits.checkPut(row, column, value);                 // NPE / IAE exactly as the API promises
 * Mutation m = Mutation.put(row.clone(), column.clone(), value.clone());
 * memtable.add(m.key(sequence), m.value());
 * }</pre>
 */
package dev.strata.engine.write;
