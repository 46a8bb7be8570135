package dev.strata.engine.log;

import dev.strata.engine.CorruptionException;
import dev.strata.engine.fs.ByteCursor;
import dev.strata.engine.write.Limits;
import dev.strata.engine.write.MarkerCodec;
import dev.strata.engine.write.MarkerUpdate;
import dev.strata.engine.write.Mutation;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.ValueKind;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Encodes a batch of mutations into a log record payload and decodes it back ({@code Payload} in
 * {@link LogFormat}). Decoding trusts nothing: every length, kind and count is checked, and any
 * mismatch is a {@link CorruptionException} naming the file and the offset of the bad field.
 *
 * <p>Thread-safe (stateless).
 */
public final class BatchCodec {

  private BatchCodec() {}

  /**
   * The payload of a record holding {@code mutations} with sequence numbers from {@code
   * firstSequence}.
   *
   * @throws IllegalArgumentException when the sequence numbers would leave [0, {@link
   *     InternalKey#MAX_SEQUENCE}] or the payload would exceed {@link LogFormat#MAX_PAYLOAD_BYTES}
   */
  public static byte[] encode(long firstSequence, List<Mutation> mutations) {
    return encode(firstSequence, mutations, List.of());
  }

  /** As {@link #encode(long, List)}, the record carrying the commit marker updates {@code markers}. */
  public static byte[] encode(
      long firstSequence, List<Mutation> mutations, List<MarkerUpdate> markers) {
    ByteBuffer b =
        ByteBuffer.allocate(payloadBytes(firstSequence, mutations, markers))
            .order(ByteOrder.LITTLE_ENDIAN);
    encodeInto(b, firstSequence, mutations, markers);
    return b.array();
  }

  /**
   * The bytes of the payload {@link #encode} makes of {@code mutations} and {@code markers}.
   *
   * @throws IllegalArgumentException as {@link #encode}
   */
  public static int payloadBytes(
      long firstSequence, List<Mutation> mutations, List<MarkerUpdate> markers) {
    int count = mutations.size();
    if (!sequencesFit(firstSequence, count)) {
      throw new IllegalArgumentException(
          "sequence numbers " + firstSequence + " + " + count + " leave [0, MAX_SEQUENCE]");
    }
    long size = LogFormat.BATCH_HEADER_BYTES + LogFormat.markersSize(markers);
    for (int i = 0; i < count; i++) { // indexed: no iterator on the write path
      size += LogFormat.encodedSize(mutations.get(i));
    }
    if (size > LogFormat.MAX_PAYLOAD_BYTES) {
      throw new IllegalArgumentException(
          "batch of " + size + " bytes exceeds MAX_BATCH_BYTES (" + Limits.MAX_BATCH_BYTES + ")");
    }
    return (int) size;
  }

  /**
   * Puts the payload of {@code mutations} and {@code markers} into {@code b}, a little-endian
   * buffer with {@link #payloadBytes} of room: the log writer encodes a write group straight into
   * its own buffer, with no payload array per batch.
   */
  public static void encodeInto(
      ByteBuffer b, long firstSequence, List<Mutation> mutations, List<MarkerUpdate> markers) {
    assert b.order() == ByteOrder.LITTLE_ENDIAN : "payloads are little-endian";
    int count = mutations.size();
    b.putLong(firstSequence).putInt(count);
    for (int i = 0; i < count; i++) {
      Mutation m = mutations.get(i);
      b.put((byte) m.kind().id());
      b.putShort((short) m.row().length).put(m.row());
      b.putShort((short) m.column().length).put(m.column());
      if (m.kind() == ValueKind.PUT) {
        b.putInt(m.value().length).put(m.value());
      }
    }
    if (markers.isEmpty()) {
      return; // the bytes of a version-1 record
    }
    b.putShort((short) markers.size());
    MarkerCodec.put(b, markers);
  }

  /** {@link #encode(long, List)} of a record. */
  public static byte[] encode(LogRecord record) {
    return encode(record.firstSequence(), record.mutations(), record.markers());
  }

  /** {@link #decode(byte[], Path, long, int)} of a payload of the current version. */
  public static LogRecord decode(byte[] payload, Path file, long payloadOffset)
      throws CorruptionException {
    return decode(payload, file, payloadOffset, LogFormat.VERSION_CURRENT);
  }

  /**
   * Decodes a payload that passed its checksum.
   *
   * @param payload the payload bytes
   * @param file the log file, for error messages
   * @param payloadOffset where the payload starts in {@code file}, for error messages
   * @param version the version of the log file that holds it: markers only from version 2
   * @throws CorruptionException when the payload does not parse
   */
  public static LogRecord decode(byte[] payload, Path file, long payloadOffset, int version)
      throws CorruptionException {
    ByteCursor in = new ByteCursor(payload, 0, payload.length, file, payloadOffset, "log record");
    long firstSequence = in.u64("firstSequence");
    long count = in.u32("count");
    // Every op takes at least OP_HEADER_BYTES + 1: refuse absurd counts before allocating.
    if (count > (long) in.remaining() / (LogFormat.OP_HEADER_BYTES + 1)) {
      throw in.corrupt(-4, "count %d does not fit in %d payload bytes", count, payload.length);
    }
    if (!sequencesFit(firstSequence, count)) {
      throw in.corrupt(-12, "sequence numbers %d + %d out of range", firstSequence, count);
    }
    List<Mutation> mutations = new ArrayList<>((int) count);
    for (long i = 0; i < count; i++) {
      int kindId = in.u8("kind");
      ValueKind kind = ValueKind.fromIdOrNull(kindId);
      if (kind == null) {
        throw in.corrupt(-1, "unknown kind id %d in op %d", kindId, i);
      }
      int rowLength = in.u16("rowLength");
      if (rowLength == 0 || rowLength > Limits.MAX_ROW_LENGTH) {
        throw in.corrupt(-2, "row length %d outside [1, MAX_ROW_LENGTH] in op %d", rowLength, i);
      }
      byte[] row = in.bytes(rowLength, "row");
      int columnLength = in.u16("columnLength");
      if (columnLength > Limits.MAX_COLUMN_LENGTH) {
        throw in.corrupt(-2, "column length %d over MAX_COLUMN_LENGTH in op %d", columnLength, i);
      }
      if (kind == ValueKind.DELETE_ROW && columnLength != 0) {
        throw in.corrupt(-2, "row tombstone with a %d-byte column in op %d", columnLength, i);
      }
      byte[] column = in.bytes(columnLength, "column");
      byte[] value = Mutation.EMPTY;
      if (kind == ValueKind.PUT) {
        long valueLength = in.u32("valueLength");
        if (valueLength > Limits.MAX_VALUE_LENGTH) {
          throw in.corrupt(-4, "value length %d over MAX_VALUE_LENGTH in op %d", valueLength, i);
        }
        value = in.bytes((int) valueLength, "value");
      }
      mutations.add(new Mutation(kind, row, column, value));
    }
    List<MarkerUpdate> markers =
        in.remaining() != 0 && version >= LogFormat.VERSION_MARKERS ? decodeMarkers(in) : List.of();
    if (in.remaining() != 0) {
      throw in.corrupt(0, "%d bytes after the last of %d ops", in.remaining(), count);
    }
    return new LogRecord(firstSequence, mutations, markers);
  }

  /** The markers section after the ops: a count of at least 1, then each update, checked. */
  private static List<MarkerUpdate> decodeMarkers(ByteCursor in) throws CorruptionException {
    int count = in.u16("markerCount");
    if (count == 0 || count > Limits.MAX_COMMIT_MARKERS_PER_BATCH) {
      throw in.corrupt(-2, "marker count %d outside [1, MAX_COMMIT_MARKERS_PER_BATCH]", count);
    }
    return MarkerCodec.read(in, count);
  }

  /**
   * True when sequences firstSequence to firstSequence + count - 1 all lie in [0, MAX_SEQUENCE].
   */
  private static boolean sequencesFit(long firstSequence, long count) {
    return firstSequence >= 0
        && firstSequence <= InternalKey.MAX_SEQUENCE
        && (count == 0 || firstSequence + count - 1 <= InternalKey.MAX_SEQUENCE);
  }
}
