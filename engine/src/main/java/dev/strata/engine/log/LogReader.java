package dev.strata.engine.log;

import dev.strata.checksum.Checksums;
import dev.strata.engine.CorruptionException;
import dev.strata.engine.FormatVersionException;
import dev.strata.engine.fs.Closeables;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;

/**
 * Reads the records of one log file in order, telling a clean end, a torn tail and corruption apart
 * by the rules in {@link LogFormat}: records are returned until the clean end or a torn tail, whose
 * bytes are dropped and reported by {@link #tailReport()}; anything else unreadable is a {@link
 * CorruptionException} naming the file and the offset of the bad record.
 *
 * <pre>{@code
 * try (LogReader reader = LogReader.open(file, logNumber)) {
 *   for (LogRecord r; (r = reader.nextRecord()) != null; ) {
 *     apply(r);
 *   }
 *   if (reader.tailDropped()) logger.log(WARNING, reader.tailReport());
 * }
 * }</pre>
 *
 * <p>Reads the file as it was when opened: bytes appended later are not seen. Not thread-safe.
 */
public final class LogReader implements AutoCloseable {

  /** Read-ahead of the sequential replay, which reads each byte once. */
  private static final int READ_BUFFER_BYTES = 1 << 16;

  private final Path file;
  private final long fileNumber;
  private final FileChannel channel;
  private final DataInputStream in;
  private final long fileSize;

  /** Offset of the next unread byte. */
  private long position;

  /** Offset of the record last returned, or -1. */
  private long recordOffset = -1;

  /** The file's format version, from its header; the current one until the header is read. */
  private int version = LogFormat.VERSION_CURRENT;

  /** True once the end (clean or torn) was reached. */
  private boolean done;

  /** Bytes dropped as a torn tail. */
  private long droppedBytes;

  /** Why the tail was dropped, or null. */
  private String tailReason;

  private LogReader(Path file, long fileNumber, FileChannel channel, long fileSize) {
    this.file = file;
    this.fileNumber = fileNumber;
    this.channel = channel;
    this.fileSize = fileSize;
    InputStream raw = Channels.newInputStream(channel);
    this.in = new DataInputStream(new BufferedInputStream(raw, READ_BUFFER_BYTES));
  }

  /**
   * Opens {@code file} and checks its header.
   *
   * @param expectedFileNumber the number in the file's name, which its header must repeat
   * @throws CorruptionException when the header is damaged or names another file number
   * @throws FormatVersionException when the log was written in an unsupported version
   */
  public static LogReader open(Path file, long expectedFileNumber) throws IOException {
    FileChannel ch = FileChannel.open(file, StandardOpenOption.READ);
    try {
      LogReader reader = new LogReader(file, expectedFileNumber, ch, ch.size());
      reader.readFileHeader();
      return reader;
    } catch (Throwable t) {
      Closeables.closeSuppressing(t, ch);
      throw t;
    }
  }

  /**
   * The next record's payload, or null at the end of the log (clean or after a dropped tail).
   *
   * @throws CorruptionException when a record before the tail is damaged
   */
  public byte[] next() throws IOException {
    if (done) {
      return null;
    }
    long p = position;
    long left = fileSize - p;
    if (left == 0) {
      done = true;
      return null;
    }
    if (left < LogFormat.RECORD_HEADER_BYTES) {
      return tornTail(p, "incomplete record header");
    }
    byte[] header = readFully(LogFormat.RECORD_HEADER_BYTES);
    ByteBuffer h = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN);
    int storedHeaderCrc = h.getInt();
    long length = h.getInt() & 0xFFFF_FFFFL;
    int storedPayloadCrc = h.getInt();
    int headerCrc = Checksums.maskedCrc32c(header, 4, LogFormat.RECORD_HEADER_BYTES - 4);
    if (headerCrc != storedHeaderCrc) {
      if (restIsZero(left - LogFormat.RECORD_HEADER_BYTES)) {
        return tornTail(p, "record header checksum mismatch followed by zeros only");
      }
      throw new CorruptionException(
          file,
          p,
          "log record header checksum mismatch (stored %08x, computed %08x) with %d more bytes"
              + " after it",
          storedHeaderCrc,
          headerCrc,
          left - LogFormat.RECORD_HEADER_BYTES);
    }
    if (length > LogFormat.MAX_PAYLOAD_BYTES) {
      throw new CorruptionException(
          file, p, "log record length %d exceeds %d", length, LogFormat.MAX_PAYLOAD_BYTES);
    }
    if (LogFormat.RECORD_HEADER_BYTES + length > left) {
      return tornTail(p, "record of " + length + " bytes runs past the end of the file");
    }
    byte[] payload = readFully((int) length);
    int payloadCrc = Checksums.maskedCrc32c(payload, 0, payload.length);
    if (payloadCrc != storedPayloadCrc) {
      if (restIsZero(left - LogFormat.RECORD_HEADER_BYTES - length)) {
        return tornTail(p, "last record fails its checksum");
      }
      throw new CorruptionException(
          file,
          p,
          "log record payload checksum mismatch (stored %08x, computed %08x, %d bytes) before more"
              + " records",
          storedPayloadCrc,
          payloadCrc,
          length);
    }
    recordOffset = p;
    position = p + LogFormat.RECORD_HEADER_BYTES + length;
    return payload;
  }

  /**
   * The next record, decoded, or null at the end of the log.
   *
   * @throws CorruptionException when a record before the tail is damaged or does not parse
   */
  public LogRecord nextRecord() throws IOException {
    byte[] payload = next();
    if (payload == null) {
      return null;
    }
    return BatchCodec.decode(
        payload, file, recordOffset + LogFormat.RECORD_HEADER_BYTES, version);
  }

  /** The file's format version as its header gives it (the current one before it is read). */
  public int version() {
    return version;
  }

  /** The offset of the record last returned, or -1 before the first. */
  public long recordOffset() {
    return recordOffset;
  }

  /** The bytes up to the end of the last good record (the header's end before any record). */
  public long validLength() {
    return position;
  }

  /** True when the end was reached by dropping a torn tail. */
  public boolean tailDropped() {
    return tailReason != null;
  }

  /** The bytes dropped as a torn tail; 0 until the end is reached, and at a clean end. */
  public long droppedBytes() {
    return droppedBytes;
  }

  /**
   * "FILE: tail dropped, N bytes at offset P (why)" after a torn tail was dropped; null otherwise.
   */
  public String tailReport() {
    if (tailReason == null) {
      return null;
    }
    return String.format(
        Locale.ROOT,
        "%s: tail dropped, %d bytes at offset %d (%s)",
        file,
        droppedBytes,
        position,
        tailReason);
  }

  /** The log file. */
  public Path file() {
    return file;
  }

  /** The log's file number, as its header confirmed. */
  public long fileNumber() {
    return fileNumber;
  }

  /** Closes the file. Idempotent. */
  @Override
  public void close() throws IOException {
    channel.close();
  }

  @Override
  public String toString() {
    return "LogReader[" + file + " at " + position + " of " + fileSize + "]";
  }

  private void readFileHeader() throws IOException {
    int n = LogFormat.FILE_HEADER_BYTES;
    if (fileSize < n) {
      byte[] partial = readFully((int) fileSize);
      if (!isPrefixOfHeader(partial)) {
        throw new CorruptionException(
            file, 0, "%d-byte log is neither empty nor the start of a log header", fileSize);
      }
      position = 0;
      if (fileSize > 0) {
        tornTail(0, "incomplete file header");
      } else {
        done = true;
      }
      return;
    }
    byte[] header = readFully(n);
    ByteBuffer b = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN);
    long magic = b.getLong();
    int version = b.getInt();
    long number = b.getLong();
    int stored = b.getInt();
    int computed = Checksums.maskedCrc32c(header, 0, LogFormat.FILE_HEADER_CRC_OFFSET);
    if (stored != computed) {
      if (restIsZero(fileSize - n)) {
        // The same rule as for a record: a damaged header followed by zeros only is a torn write.
        tornTail(0, "file header checksum mismatch followed by zeros only");
        return;
      }
      throw new CorruptionException(
          file,
          0,
          "log file header checksum mismatch (stored %08x, computed %08x)",
          stored,
          computed);
    }
    if (magic != LogFormat.MAGIC) {
      throw new CorruptionException(file, 0, "not a log file: magic %016x", magic);
    }
    if (version < LogFormat.VERSION_START || version > LogFormat.VERSION_CURRENT) {
      throw new FormatVersionException(
          file, version, LogFormat.VERSION_START, LogFormat.VERSION_CURRENT);
    }
    this.version = version;
    if (number != fileNumber) {
      throw new CorruptionException(
          file, 8 + 4, "log header names file number %d, expected %d", number, fileNumber);
    }
    position = n;
  }

  /**
   * True when {@code partial} is a prefix of this log's header followed by zeros only: a header
   * whose write was cut short.
   */
  private boolean isPrefixOfHeader(byte[] partial) {
    byte[] expected = LogFormat.fileHeader(fileNumber).array();
    int i = 0;
    while (i < partial.length && partial[i] == expected[i]) {
      i++;
    }
    while (i < partial.length && partial[i] == 0) {
      i++;
    }
    return i == partial.length;
  }

  private byte[] tornTail(long at, String reason) {
    done = true;
    position = at;
    droppedBytes = fileSize - at;
    tailReason = reason;
    return null;
  }

  /**
   * True when the {@code count} bytes from the stream's position (the rest of the file as it was
   * when opened) are all zero.
   */
  private boolean restIsZero(long count) throws IOException {
    byte[] buf = new byte[READ_BUFFER_BYTES];
    long left = count;
    while (left > 0) {
      int n = (int) Math.min(buf.length, left);
      in.readFully(buf, 0, n);
      for (int i = 0; i < n; i++) {
        if (buf[i] != 0) {
          return false;
        }
      }
      left -= n;
    }
    return true;
  }

  private byte[] readFully(int n) throws IOException {
    byte[] out = new byte[n];
    in.readFully(out);
    return out;
  }
}
