/**
 * Keys, as the engine holds them and as blocks store them (Pebble's {@code internal/base} keys):
 * {@link dev.strata.sstable.key.InternalKey} (row, column, sequence, kind) and its one fixed order,
 * {@link dev.strata.sstable.key.ValueKind} (a value, a cell tombstone, a row tombstone; a persisted
 * id), {@link dev.strata.sstable.key.KeyCodec} (the encoding {@code rowLength:u16 row column
 * [trailer:u64]} and the comparison of a wanted key against encoded bytes in place), and {@link
 * dev.strata.sstable.key.EncodedKeys} (the same keys left encoded, for compaction's merge).
 *
 * <p>Invariants: the encoded order and {@link dev.strata.sstable.key.InternalKey#ORDER} agree for
 * every pair of keys ({@code KeyCodec.compare} and {@code EncodedKeys.compare} say so without
 * decoding); a row tombstone sits under the empty column; {@code ordinal()} never reaches disk.
 *
 * <p>Layering: depends on {@code format} only. {@code block}, {@code index}, {@code filter} and the
 * root build on it, and so does the engine (memtable, log records, merging iterators), which is why
 * these types are public; they are internal to the storage core, not part of the embedding API.
 *
 * <pre>{@code
 * InternalKey k = new InternalKey(row, column, 42, ValueKind.PUT);
 * byte[] encoded = EncodedKeys.encode(k);
 * assert EncodedKeys.decode(encoded, encoded.length).equals(k);
 * }</pre>
 *
 * <p>Concurrency: immutable values and stateless codecs; thread-safe.
 */
package dev.strata.sstable.key;
