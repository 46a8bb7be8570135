package dev.strata.engine.log;

import dev.strata.checksum.Checksums;
import dev.strata.engine.write.Limits;
import dev.strata.engine.write.MarkerCodec;
import dev.strata.engine.write.MarkerUpdate;
import dev.strata.engine.write.Mutation;
import dev.strata.sstable.key.ValueKind;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * The write-ahead log's byte layout, one file per memtable generation ({@code NNNNNN.log}). All
 * integers are little-endian, as in every Strata format; {@code crc} is a masked CRC32C ({@link Checksums}).
 *
 * <pre>
 * LogFile    := FileHeader Record*
 * FileHeader := magic:u64 version:u32 fileNumber:u64 headerCrc:u32          (24 bytes)
 *               headerCrc = crc(magic, version, fileNumber)
 * Record     := headerCrc:u32 length:u32 payloadCrc:u32 payload:byte[length]
 *               headerCrc = crc(length, payloadCrc)     payloadCrc = crc(payload)
 * Payload    := firstSequence:u64 count:u32 Op{count} [Markers]             (one write or batch)
 * Op         := kind:u8 rowLength:u16 row columnLength:u16 column [valueLength:u32 value]
 *               kind = ValueKind.id(); the value is present only for PUT; DELETE_ROW has an empty
 *               column; op i has sequence firstSequence + i
 * Markers    := markerCount:u16 Marker{markerCount}        (version 2; only when markerCount >= 1)
 * Marker     := nameLength:u16 name present:u8 [valueLength:u32 value]        (MarkerCodec)
 *               present 1 sets the commit marker name to value, 0 removes it (no value follows)
 * </pre>
 *
 * <p><b>Commit markers.</b> A batch's markers (named values outside the key space, {@code
 * WriteBatch.putCommitMarker}) ride in its record, after its ops, so they are exactly as durable
 * and as atomic as its data: a record replayed applies both, a record dropped neither. They take no
 * sequence number; a batch of markers only is a record with {@code count} 0, whose {@code
 * firstSequence} is one above the last sequence before it (its last sequence is {@code
 * firstSequence - 1}). A record without markers has the same bytes in versions 1 and 2.
 *
 * <p><b>Why plain length-prefixed records and not LevelDB's 32 KiB blocks.</b> LevelDB splits
 * records into FULL/FIRST/MIDDLE/LAST chunks so that, after damage, a reader can skip to the next
 * block and go on. Strata never goes on past damage: anything but a torn tail fails the open (the
 * API promises that). What matters is only that a damaged length can never pass for a torn tail,
 * and a checksum of its own over the record header gives exactly that: once the header checks out,
 * the length is trusted, and "the record runs past the end of the file" means a torn write and
 * nothing else. A record is then written with one gathering write and read with one read, however
 * large.
 *
 * <p><b>Telling a torn tail from corruption.</b> A crash leaves a prefix of what was written,
 * possibly followed by zero bytes that the file system allocated but never wrote (a power loss).
 * Reading a record at offset {@code p} of a file of {@code size} bytes:
 *
 * <ol>
 *   <li>{@code p == size}: clean end of the log.
 *   <li>Fewer than {@value #RECORD_HEADER_BYTES} bytes left: an incomplete header, a torn tail.
 *   <li>The header's checksum fails: a torn tail if every byte after the header is zero (or there
 *       is none), otherwise corruption at {@code p}: the length cannot be trusted, and non-zero
 *       bytes after it mean the damage is not at the tail.
 *   <li>The header is good and {@code p + 12 + length > size}: the record was cut short, a torn
 *       tail.
 *   <li>The payload's checksum fails: a torn tail if every byte after the record is zero (or there
 *       is none), otherwise corruption at {@code p}.
 *   <li>Otherwise the payload is good; a payload that then fails to parse is corruption.
 * </ol>
 *
 * <p>A torn tail is dropped and reported as "tail dropped, N bytes". So a bit flipped in any record
 * but the last fails the open, while damage to the last record's payload is indistinguishable from
 * a torn write and drops that one record, as in LevelDB and RocksDB. The file header follows the
 * same rules: a file shorter than the header whose bytes are a prefix of a valid header (or zeros),
 * or a header failing its checksum with zeros only after it, is a log that was being created, read
 * as empty with its bytes dropped. The engine never appends to a log after a dropped tail: it cuts
 * the tail off first, or starts a new log file (a rule for the engine), so damage can only ever sit
 * at the end of a file.
 *
 * <p>History: version 1 is the format above without {@code Markers}; version 2 adds them. A file
 * of version 1 is read with every record's markers empty, and the engine never appends to one (it
 * starts a new log instead), so a version-1 file never holds a record with markers.
 *
 * <p>Thread-safe (constants and stateless helpers).
 */
public final class LogFormat {

  /** First bytes of every log file: ASCII "STRATWAL" (the u64 read little-endian). */
  public static final long MAGIC = 0x4C41_5754_4152_5453L;

  /** The oldest format version this release reads. */
  public static final int VERSION_START = 1;

  /** The version this release writes. */
  public static final int VERSION_CURRENT = 2;

  /** The first version whose records may carry commit markers. */
  public static final int VERSION_MARKERS = 2;

  /** Size of the file header. */
  public static final int FILE_HEADER_BYTES = 8 + 4 + 8 + 4;

  /** Offset of the file header's checksum; it covers the bytes before it. */
  public static final int FILE_HEADER_CRC_OFFSET = FILE_HEADER_BYTES - 4;

  /** Size of a record header: headerCrc, length, payloadCrc. */
  public static final int RECORD_HEADER_BYTES = 4 + 4 + 4;

  /** Size of a payload's fixed part: firstSequence and count. */
  public static final int BATCH_HEADER_BYTES = 8 + 4;

  /** Size of an op's fixed part without the value length: kind, rowLength, columnLength. */
  public static final int OP_HEADER_BYTES = 1 + 2 + 2;

  /** Size of a PUT's value length field. */
  public static final int VALUE_LENGTH_BYTES = 4;

  /** The largest payload: a batch of {@link Limits#MAX_BATCH_BYTES} operation bytes. */
  public static final long MAX_PAYLOAD_BYTES = BATCH_HEADER_BYTES + Limits.MAX_BATCH_BYTES;

  private LogFormat() {}

  /** The bytes {@code m} takes in a payload. */
  public static long encodedSize(Mutation m) {
    long size = OP_HEADER_BYTES + (long) m.row().length + m.column().length;
    if (m.kind() == ValueKind.PUT) {
      size += VALUE_LENGTH_BYTES + (long) m.value().length;
    }
    return size;
  }

  /** The bytes {@code markers} take after a payload's ops: none when there is no marker. */
  public static long markersSize(List<MarkerUpdate> markers) {
    if (markers.isEmpty()) {
      return 0;
    }
    return 2 + MarkerCodec.size(markers);
  }

  /**
   * The version in the header of the log {@code file}, whose first {@link #FILE_HEADER_BYTES}
   * bytes passed the reader's checks; the engine appends only to a log of the current version.
   */
  public static int versionOf(Path file) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      ByteBuffer b = ByteBuffer.allocate(8 + 4).order(ByteOrder.LITTLE_ENDIAN);
      while (b.hasRemaining() && ch.read(b) >= 0) {
        // read the magic and the version
      }
      return b.hasRemaining() ? -1 : b.getInt(8);
    }
  }

  /** The file header of log number {@code fileNumber}. */
  static ByteBuffer fileHeader(long fileNumber) {
    ByteBuffer b = ByteBuffer.allocate(FILE_HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    b.putLong(MAGIC).putInt(VERSION_CURRENT).putLong(fileNumber);
    b.putInt(Checksums.maskedCrc32c(b.array(), 0, FILE_HEADER_CRC_OFFSET));
    return b.flip();
  }

  /**
   * Puts the record of {@code payload}, its header then the payload, into {@code into}: a
   * little-endian heap buffer with room for it.
   */
  static void putRecord(ByteBuffer into, byte[] payload) {
    int start = beginRecord(into);
    into.put(payload);
    finishRecord(into, start);
  }

  /**
   * Leaves room for a record header in {@code into}, a little-endian heap buffer, and returns where
   * the record starts: its payload is put next, then {@link #finishRecord} writes the header.
   */
  static int beginRecord(ByteBuffer into) {
    assert into.hasArray() && into.order() == ByteOrder.LITTLE_ENDIAN : "a little-endian heap buffer";
    int start = into.position();
    into.position(start + RECORD_HEADER_BYTES);
    return start;
  }

  /**
   * Writes the header of the record begun at {@code start}, whose payload runs from its header to
   * the buffer's position: the payload's length and checksum, then the header's own checksum.
   */
  static void finishRecord(ByteBuffer into, int start) {
    int payloadStart = start + RECORD_HEADER_BYTES;
    int length = into.position() - payloadStart;
    byte[] array = into.array();
    int base = into.arrayOffset();
    into.putInt(start + 4, length);
    into.putInt(start + 8, Checksums.maskedCrc32c(array, base + payloadStart, length));
    into.putInt(start, Checksums.maskedCrc32c(array, base + start + 4, RECORD_HEADER_BYTES - 4));
  }
}
