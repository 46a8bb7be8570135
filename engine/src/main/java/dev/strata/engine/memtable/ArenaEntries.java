package dev.strata.engine.memtable;

import dev.strata.sstable.format.Bytes;
import dev.strata.sstable.format.SstableFormat;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.KeyCodec;
import dev.strata.sstable.key.ValueKind;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A memtable's entries, encoded in an {@link Arena}: how an entry is laid out, written, compared
 * with a search key and read back. The skip list ({@link ArenaSkipList}) orders them by address.
 *
 * <p>Entry layout, little-endian, at an arena address:
 *
 * <pre>
 * rowLength u16 | columnLength u16 | valueLength i32 | tag i64 = sequence << 8 | kind id
 * | row | column | value
 * </pre>
 *
 * Entries are ordered as {@link InternalKey#ORDER}: row and column unsigned, then sequence
 * descending, then kind id. An iterator's search key is encoded the same way (without a value) and
 * compared byte for byte, so a seek allocates one small array and no key object; a point lookup
 * and an insert compare the entries with their row, column and tag directly and allocate nothing.
 *
 * <p>Thread-safety: one writer ({@link #write}), any number of readers of entries the writer
 * published (through the skip list's release store). The skip list owns the arena's memory.
 */
final class ArenaEntries {
  /** Bytes of an entry's header before its row. */
  static final int HEADER_BYTES = 16;

  private static final VarHandle SHORTS =
      MethodHandles.byteBufferViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle INTS =
      MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LONGS =
      MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle ARRAY_SHORTS =
      MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle ARRAY_INTS =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle ARRAY_LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  /** Where the entries are: the skip list's entry arena, back to back. */
  private final Arena arena;

  ArenaEntries(Arena arena) {
    this.arena = arena;
  }

  /** Bytes of an entry of {@code row}, {@code column} and {@code value}, its header included. */
  static int size(byte[] row, byte[] column, byte[] value) {
    return HEADER_BYTES + row.length + column.length + value.length;
  }

  /**
   * Writes an entry at {@code entry}, an address with {@link #size} bytes allocated; not reachable
   * by readers until a node links it.
   */
  void write(long entry, byte[] row, byte[] column, long tag, byte[] value) {
    ByteBuffer c = arena.chunk(entry);
    int o = Arena.offset(entry);
    writeHeader(c, o, row.length, column.length, value.length, tag);
    c.put(o + HEADER_BYTES, row, 0, row.length);
    c.put(o + HEADER_BYTES + row.length, column, 0, column.length);
    c.put(o + HEADER_BYTES + row.length + column.length, value, 0, value.length);
  }

  /** The row length of the encoded search key at ({@code k}, {@code ko}), whose row follows. */
  static int searchKeyRowLength(byte[] k, int ko) {
    return (short) ARRAY_SHORTS.get(k, ko) & 0xFFFF;
  }

  /** An encoded search key: the header and the row and column, no value. */
  static byte[] searchKey(byte[] row, byte[] column, long sequence, ValueKind kind) {
    byte[] k = new byte[HEADER_BYTES + row.length + column.length];
    ARRAY_SHORTS.set(k, 0, (short) row.length);
    ARRAY_SHORTS.set(k, 2, (short) column.length);
    ARRAY_INTS.set(k, 4, 0);
    ARRAY_LONGS.set(k, 8, tag(sequence, kind));
    System.arraycopy(row, 0, k, HEADER_BYTES, row.length);
    System.arraycopy(column, 0, k, HEADER_BYTES + row.length, column.length);
    return k;
  }

  /** Compares the entry at {@code entry} with the encoded key at ({@code k}, {@code ko}). */
  int compare(long entry, byte[] k, int ko) {
    int krl = (short) ARRAY_SHORTS.get(k, ko) & 0xFFFF;
    int kcl = (short) ARRAY_SHORTS.get(k, ko + 2) & 0xFFFF;
    long ktag = (long) ARRAY_LONGS.get(k, ko + 8);
    return compareCell(entry, k, ko + HEADER_BYTES, krl, k, ko + HEADER_BYTES + krl, kcl, ktag);
  }

  /** {@link #compare} with a key given by its row, column and tag. */
  int compareCell(long entry, byte[] row, byte[] column, long ktag) {
    return compareCell(entry, row, 0, row.length, column, 0, column.length, ktag);
  }

  /**
   * Compares the entry with the key whose row is {@code k[ro, ro + rl)}, column {@code c[co, co +
   * cl)} and tag {@code ktag}.
   */
  private int compareCell(
      long entry, byte[] k, int ro, int rl, byte[] c, int co, int cl, long ktag) {
    ByteBuffer b = arena.chunk(entry);
    int o = Arena.offset(entry);
    int erl = rowLength(b, o);
    int r = o + HEADER_BYTES;
    int cmp = BufferBytes.compare(b, r, erl, k, ro, rl);
    if (cmp != 0) {
      return cmp;
    }
    cmp = BufferBytes.compare(b, r + erl, columnLength(b, o), c, co, cl);
    if (cmp != 0) {
      return cmp;
    }
    return compareTags(tag(b, o), ktag);
  }

  /** Entries of one cell: newer (larger sequence) first, then by kind id. */
  private static int compareTags(long tag, long ktag) {
    int cmp = Long.compare(ktag >>> 8, tag >>> 8); // newer first
    return cmp != 0 ? cmp : Integer.compare((int) tag & 0xFF, (int) ktag & 0xFF);
  }

  /** True when the entry's row and column are {@code row} and {@code column}. */
  boolean sameCell(long entry, byte[] row, byte[] column) {
    ByteBuffer b = arena.chunk(entry);
    int o = Arena.offset(entry);
    int rl = rowLength(b, o);
    int r = o + HEADER_BYTES;
    return rl == row.length
        && columnLength(b, o) == column.length
        && BufferBytes.compare(b, r, rl, row, 0, rl) == 0
        && BufferBytes.compare(b, r + rl, column.length, column, 0, column.length) == 0;
  }

  /** The entry's key as an object (row and column copied out of the arena). */
  InternalKey key(long entry) {
    ByteBuffer b = arena.chunk(entry);
    int o = Arena.offset(entry);
    int rl = rowLength(b, o);
    int cl = columnLength(b, o);
    int r = o + HEADER_BYTES;
    byte[] row = new byte[rl];
    byte[] column = new byte[cl];
    b.get(r, row, 0, rl);
    b.get(r + rl, column, 0, cl);
    long tag = tag(b, o);
    return new InternalKey(row, column, tag >>> 8, ValueKind.fromIdOrNull((int) tag & 0xFF));
  }

  /** The entry's kind. */
  ValueKind kind(long entry) {
    return ValueKind.fromIdOrNull((int) tag(arena.chunk(entry), Arena.offset(entry)) & 0xFF);
  }

  /** A copy of the entry's value (empty for tombstones). */
  byte[] value(long entry) {
    byte[] v = new byte[valueLength(entry)];
    copyValue(entry, v);
    return v;
  }

  /** Copies the entry's value to the start of {@code into} (room for {@link #valueLength}). */
  void copyValue(long entry, byte[] into) {
    ByteBuffer b = arena.chunk(entry);
    int o = Arena.offset(entry);
    b.get(o + HEADER_BYTES + rowLength(b, o) + columnLength(b, o), into, 0, valueLength(b, o));
  }

  /** Bytes of the entry's key encoded as a table holds it ({@link KeyCodec#encodeInternalKey}). */
  int encodedKeyLength(long entry) {
    ByteBuffer b = arena.chunk(entry);
    int o = Arena.offset(entry);
    return SstableFormat.ROW_LENGTH_BYTES + rowLength(b, o) + columnLength(b, o)
        + SstableFormat.KEY_TRAILER_BYTES;
  }

  /**
   * Writes the entry's key at the start of {@code into} (with room for {@link #encodedKeyLength})
   * as {@link KeyCodec#encodeInternalKey} would: row length, row and column (contiguous in the
   * entry as in the key), then the tag, which the entry holds as the key's trailer (sequence << 8 |
   * kind id). A flush reads every key this way, with no key object.
   */
  void encodeKey(long entry, byte[] into) {
    ByteBuffer b = arena.chunk(entry);
    int o = Arena.offset(entry);
    int rl = rowLength(b, o);
    int cl = columnLength(b, o);
    Bytes.putU16(into, 0, rl);
    b.get(o + HEADER_BYTES, into, SstableFormat.ROW_LENGTH_BYTES, rl + cl);
    Bytes.putU64(into, SstableFormat.ROW_LENGTH_BYTES + rl + cl, tag(b, o));
  }

  /**
   * The last byte of an entry of at most {@code maxBytes} bytes, else its first: read ahead of a
   * walk to load a short entry's last cache line (a long entry's lines follow as a copy reads them
   * in order, which the processor's stream prefetch serves).
   */
  byte lastByteIfShort(long entry, int maxBytes) {
    ByteBuffer b = arena.chunk(entry);
    int o = Arena.offset(entry);
    int size = HEADER_BYTES + rowLength(b, o) + columnLength(b, o) + valueLength(b, o);
    return b.get(size <= maxBytes ? o + size - 1 : o);
  }

  /** Bytes of the entry's value (0 for tombstones). */
  int valueLength(long entry) {
    return valueLength(arena.chunk(entry), Arena.offset(entry));
  }

  static long tag(long sequence, ValueKind kind) {
    return sequence << 8 | kind.id();
  }

  private static void writeHeader(
      ByteBuffer b, int o, int rowLength, int columnLength, int valueLength, long tag) {
    SHORTS.set(b, o, (short) rowLength);
    SHORTS.set(b, o + 2, (short) columnLength);
    INTS.set(b, o + 4, valueLength);
    LONGS.set(b, o + 8, tag);
  }

  private static int rowLength(ByteBuffer b, int o) {
    int length = (short) SHORTS.get(b, o) & 0xFFFF;
    assert length <= Short.MAX_VALUE : "an entry of a released memtable (poisoned chunk) was read";
    return length;
  }

  private static int columnLength(ByteBuffer b, int o) {
    return (short) SHORTS.get(b, o + 2) & 0xFFFF;
  }

  private static int valueLength(ByteBuffer b, int o) {
    return (int) INTS.get(b, o + 4);
  }

  private static long tag(ByteBuffer b, int o) {
    return (long) LONGS.get(b, o + 8);
  }

}
