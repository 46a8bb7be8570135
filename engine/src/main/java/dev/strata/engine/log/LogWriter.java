package dev.strata.engine.log;

import dev.strata.engine.fs.Closeables;
import dev.strata.engine.fs.Directories;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * Appends records to a new log file ({@link LogFormat}). Every append hands its bytes to the
 * operating system with one gathering write before it returns, so they survive the process being
 * killed; when the writer syncs writes it also forces them to the device, so they survive a power
 * loss.
 *
 * <p>Group commit is the engine's job: it collects the batches of concurrent writers and hands them
 * over in one {@link #append(List)}, which costs one write and at most one force for all of them,
 * each batch still its own all-or-nothing record.
 *
 * <p>After a failed write the file may end in a partial record, and a record appended after it
 * would turn a torn tail into corruption in the middle of the log; so a writer that failed refuses
 * every further append, and the engine must start a new log.
 *
 * <p>Not thread-safe: writers are single-threaded (the engine's group-commit leader).
 */
public final class LogWriter implements AutoCloseable {

  private final Path file;
  private final long fileNumber;
  private final FileChannel channel;
  private final boolean syncWrites;
  private long size;
  private boolean closed;
  private IOException failure;

  private LogWriter(
      Path file, long fileNumber, FileChannel channel, boolean syncWrites, long size) {
    this.file = file;
    this.fileNumber = fileNumber;
    this.channel = channel;
    this.syncWrites = syncWrites;
    this.size = size;
  }

  /**
   * Creates the log file {@code file}, which must not exist, and writes its header. With {@code
   * syncWrites} the header and the file's directory entry are made durable before this returns, and
   * so is every later append.
   */
  public static LogWriter create(Path file, long fileNumber, boolean syncWrites)
      throws IOException {
    FileChannel ch =
        FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    try {
      ByteBuffer header = LogFormat.fileHeader(fileNumber);
      while (header.hasRemaining()) {
        ch.write(header);
      }
      if (syncWrites) {
        ch.force(true);
        Directories.fsync(Directories.parentOf(file));
      }
      return new LogWriter(file, fileNumber, ch, syncWrites, LogFormat.FILE_HEADER_BYTES);
    } catch (Throwable t) {
      Closeables.closeSuppressing(t, ch);
      throw t;
    }
  }

  /**
   * Appends one record holding {@code payload} (an encoded batch, see {@link BatchCodec}).
   *
   * @return the offset of the record in the file
   */
  public long append(byte[] payload) throws IOException {
    return append(List.of(payload));
  }

  /**
   * Appends one record per payload, in order, with a single gathering write and (when syncing) a
   * single force: the group commit of several writers' batches.
   *
   * @return the offset of the first record in the file
   * @throws IllegalArgumentException when a payload exceeds {@link LogFormat#MAX_PAYLOAD_BYTES}
   * @throws IllegalStateException when the writer is closed
   * @throws IOException on an I/O failure now or earlier
   */
  public long append(List<byte[]> payloads) throws IOException {
    checkWritable();
    ByteBuffer[] buffers = new ByteBuffer[2 * payloads.size()];
    long total = 0;
    for (int i = 0; i < payloads.size(); i++) {
      byte[] payload = payloads.get(i);
      if (payload.length > LogFormat.MAX_PAYLOAD_BYTES) {
        throw new IllegalArgumentException(
            "payload of " + payload.length + " bytes exceeds " + LogFormat.MAX_PAYLOAD_BYTES);
      }
      buffers[2 * i] = LogFormat.recordHeader(payload);
      buffers[2 * i + 1] = ByteBuffer.wrap(payload);
      total += LogFormat.RECORD_HEADER_BYTES + payload.length;
    }
    long offset = size;
    // A FileChannel closes itself when the writing thread is interrupted, which would stop the
    // database taking writes; the caller's interrupt status is set aside for this short write and
    // restored. (One arriving mid-write still closes the channel: that write fails, as it must.)
    boolean interrupted = Thread.interrupted();
    try {
      long written = 0;
      while (written < total) {
        written += channel.write(buffers);
      }
      if (syncWrites) {
        channel.force(false);
      }
    } catch (IOException e) {
      failure = e;
      throw e;
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
    size += total;
    return offset;
  }

  /** Forces everything appended so far to the device (a no-op for the data already forced). */
  public void sync() throws IOException {
    checkWritable();
    try {
      channel.force(false);
    } catch (IOException e) {
      failure = e;
      throw e;
    }
  }

  /** The bytes in the file: header and records. */
  public long size() {
    return size;
  }

  /** The log file. */
  public Path file() {
    return file;
  }

  /** The log's file number. */
  public long fileNumber() {
    return fileNumber;
  }

  /**
   * Closes the file. Does not force it: call {@link #sync()} first when the data must survive a
   * power loss and the writer does not sync every write. Idempotent.
   */
  @Override
  public void close() throws IOException {
    if (!closed) {
      closed = true;
      channel.close();
    }
  }

  @Override
  public String toString() {
    return "LogWriter[" + file + ", " + size + " bytes]";
  }

  private void checkWritable() throws IOException {
    if (closed) {
      throw new IllegalStateException("log writer is closed: " + file);
    }
    if (failure != null) {
      throw new IOException("an earlier write to " + file + " failed; start a new log", failure);
    }
  }
}
