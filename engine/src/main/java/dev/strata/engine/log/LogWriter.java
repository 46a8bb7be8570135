package dev.strata.engine.log;

import dev.strata.engine.fs.Closeables;
import dev.strata.engine.fs.Directories;
import dev.strata.engine.fs.FileLayer;
import dev.strata.engine.write.MarkerUpdate;
import dev.strata.engine.write.Mutation;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;

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
 * <p><b>Failures keep the log a clean prefix.</b> A failed append may have left part of its records
 * in the file, and a record appended after such a fragment would turn a torn tail into damage in
 * the middle of the log. So after a failure the writer reopens the file, cuts it back to the end of
 * the last record it completed, and goes on from there: the failed append leaves no trace, and the
 * appends before it are untouched.
 *
 * <ul>
 *   <li>An interrupt of the writing thread closes a {@link FileChannel} under the write (what {@code
 *       Future.cancel(true)} delivers). It is not an I/O failure: the writer sets the interrupt
 *       status aside, repairs the file and writes the same records again, then restores the status.
 *       So an interrupt fails nothing; the interrupted thread finds its flag set.
 *   <li>A write that fails (a full disk, say) is repaired and reported: that append fails, the
 *       writer takes the next one.
 *   <li>A force that fails for any reason but an interrupt is final ({@link #failed()}): the
 *       device may have dropped pages of earlier appends too (an fsync error does not say which),
 *       so nothing written since the last good force can be vouched for, and the writer refuses
 *       every further append. So does a writer whose repair failed.
 * </ul>
 *
 * <p>Not thread-safe: writers are single-threaded (the engine's group-commit leader).
 */
public final class LogWriter implements AutoCloseable {

  /** Attempts of one append that interrupts may cut short before it gives up. */
  private static final int MAX_INTERRUPTED_ATTEMPTS = 8;

  /** The largest append whose buffer is kept for the next (a group is at most about 1 MiB). */
  private static final int REUSED_BUFFER_BYTES = 2 << 20;

  private final FileLayer files;
  private final Path file;
  private final long fileNumber;
  private final boolean syncWrites;
  private FileChannel channel;
  /** The end of the last complete record: the file is cut back here after a failed append. */
  private long size;
  private boolean closed;
  private IOException failure;
  /** The caller's interrupt status, set aside during a call and restored when it returns. */
  private boolean interruptSetAside;

  /** Where appends lay out their records; grown up to {@link #REUSED_BUFFER_BYTES}, then kept. */
  private ByteBuffer reused;

  private LogWriter(
      FileLayer files,
      Path file,
      long fileNumber,
      FileChannel channel,
      boolean syncWrites,
      long size) {
    this.files = files;
    this.file = file;
    this.fileNumber = fileNumber;
    this.channel = channel;
    this.syncWrites = syncWrites;
    this.size = size;
  }

  /** {@link #create(FileLayer, Path, long, boolean)} on {@link FileLayer#real()}. */
  public static LogWriter create(Path file, long fileNumber, boolean syncWrites)
      throws IOException {
    return create(FileLayer.real(), file, fileNumber, syncWrites);
  }

  /**
   * Creates the log file {@code file} through {@code files}; it must not exist. Writes its header;
   * with {@code syncWrites} the header and the file's directory entry are made durable before this
   * returns, and so is every later append.
   */
  public static LogWriter create(FileLayer files, Path file, long fileNumber, boolean syncWrites)
      throws IOException {
    // As in append: the caller's interrupt status is set aside, and an interrupt that closes the
    // channel mid-creation makes the half-created file go and the creation start over.
    boolean interrupted = Thread.interrupted();
    try {
      for (int attempt = 1; ; attempt++) {
        FileChannel ch = files.create(file);
        try {
          ByteBuffer header = LogFormat.fileHeader(fileNumber);
          while (header.hasRemaining()) {
            ch.write(header);
          }
          if (syncWrites) {
            ch.force(true);
            files.syncDirectory(Directories.parentOf(file));
          }
          return new LogWriter(
              files, file, fileNumber, ch, syncWrites, LogFormat.FILE_HEADER_BYTES);
        } catch (ClosedChannelException e) {
          interrupted |= Thread.interrupted();
          Closeables.closeSuppressing(e, ch);
          Files.deleteIfExists(file);
          if (attempt == MAX_INTERRUPTED_ATTEMPTS) {
            throw e;
          }
        } catch (Throwable t) {
          Closeables.closeSuppressing(t, ch);
          throw t;
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * Reopens the existing log {@code file} to append after its first {@code validLength} bytes (its
   * header and the records recovery kept): anything after them, a torn record, is cut off first,
   * and the file is forced, so what recovery replayed is durable before a record is added behind
   * it. Writes nothing else: recovery on a full disk can go on with it.
   *
   * @throws IllegalArgumentException when {@code validLength} does not cover the file header
   */
  public static LogWriter reopen(
      FileLayer files, Path file, long fileNumber, long validLength, boolean syncWrites)
      throws IOException {
    if (validLength < LogFormat.FILE_HEADER_BYTES) {
      throw new IllegalArgumentException(
          file + ": a log reopened for appending needs its header, valid length " + validLength);
    }
    FileChannel ch = files.openForWrite(file);
    try {
      if (ch.size() > validLength) {
        ch.truncate(validLength);
      }
      ch.position(validLength);
      ch.force(true);
      return new LogWriter(files, file, fileNumber, ch, syncWrites, validLength);
    } catch (Throwable t) {
      Closeables.closeSuppressing(t, ch);
      throw t;
    }
  }

  /** Forces the existing log {@code file} to the device: a log recovery keeps, older than another. */
  public static void force(FileLayer files, Path file) throws IOException {
    try (FileChannel ch = files.openForWrite(file)) {
      ch.force(true);
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
   * single force: the group commit of several writers' batches. On failure none of them is in the
   * log (see the class comment).
   *
   * @return the offset of the first record in the file
   * @throws IllegalArgumentException when a payload exceeds {@link LogFormat#MAX_PAYLOAD_BYTES}
   * @throws IllegalStateException when the writer is closed
   * @throws IOException when the write or force failed; the writer goes on unless {@link
   *     #failed()}
   */
  public long append(List<byte[]> payloads) throws IOException {
    checkWritable();
    long total = 0;
    for (byte[] payload : payloads) {
      if (payload.length > LogFormat.MAX_PAYLOAD_BYTES) {
        throw new IllegalArgumentException(
            "payload of " + payload.length + " bytes exceeds " + LogFormat.MAX_PAYLOAD_BYTES);
      }
      total += LogFormat.RECORD_HEADER_BYTES + payload.length;
    }
    ByteBuffer records = buffer(total);
    for (byte[] payload : payloads) {
      LogFormat.putRecord(records, payload);
    }
    return write(records.flip(), total);
  }

  /**
   * Appends one record per batch, in order, as {@link #append(List)} of their {@link
   * BatchCodec#encode} payloads would, batch i's sequence numbers following batch i-1's from
   * {@code firstSequence}; but each payload is encoded straight into the writer's buffer, so a
   * group's append allocates nothing. {@code mutationsOf}
   * gives each batch's mutations: a method reference, so the caller's own group list serves.
   *
   * @return the offset of the first record in the file
   * @throws IllegalArgumentException as {@link BatchCodec#encode}, before anything is written
   * @throws IllegalStateException when the writer is closed
   * @throws IOException as {@link #append(List)}
   */
  public <T> long append(
      long firstSequence, List<T> batches, Function<T, List<Mutation>> mutationsOf)
      throws IOException {
    return append(firstSequence, batches, mutationsOf, b -> List.of());
  }

  /**
   * As {@link #append(long, List, Function)}, each batch's record carrying the commit marker
   * updates {@code markersOf} gives it.
   */
  public <T> long append(
      long firstSequence,
      List<T> batches,
      Function<T, List<Mutation>> mutationsOf,
      Function<T, List<MarkerUpdate>> markersOf)
      throws IOException {
    checkWritable();
    int count = batches.size();
    long total = 0;
    long seq = firstSequence;
    for (int i = 0; i < count; i++) {
      T batch = batches.get(i);
      List<Mutation> mutations = mutationsOf.apply(batch);
      total +=
          LogFormat.RECORD_HEADER_BYTES
              + BatchCodec.payloadBytes(seq, mutations, markersOf.apply(batch));
      seq += mutations.size();
    }
    ByteBuffer records = buffer(total);
    seq = firstSequence;
    for (int i = 0; i < count; i++) {
      T batch = batches.get(i);
      List<Mutation> mutations = mutationsOf.apply(batch);
      int start = LogFormat.beginRecord(records);
      BatchCodec.encodeInto(records, seq, mutations, markersOf.apply(batch));
      LogFormat.finishRecord(records, start);
      seq += mutations.size();
    }
    return write(records.flip(), total);
  }

  /** Writes {@code records} ({@code total} bytes of whole records) with the failure rules above. */
  private long write(ByteBuffer records, long total) throws IOException {
    long offset = size;
    // A FileChannel closes itself when the writing thread is interrupted; the caller's interrupt
    // status is set aside for this short write and restored. One arriving mid-write still closes
    // the channel: that attempt is repaired and written again, from the first record.
    setInterruptAside();
    try {
      for (int attempt = 1; ; attempt++) {
        boolean forcing = false;
        try {
          records.rewind();
          while (records.hasRemaining()) {
            channel.write(records);
          }
          if (syncWrites) {
            forcing = true;
            channel.force(false);
          }
          size += total;
          return offset;
        } catch (IOException e) {
          boolean cutByInterrupt = e instanceof ClosedChannelException;
          setInterruptAside();
          if (forcing && !cutByInterrupt) {
            failure = e; // see the class comment: a failed fsync vouches for nothing
            throw e;
          }
          repair(e);
          if (!cutByInterrupt || attempt == MAX_INTERRUPTED_ATTEMPTS) {
            throw e;
          }
        }
      }
    } finally {
      restoreInterrupt();
    }
  }

  /**
   * Forces everything appended so far to the device (a no-op for the data already forced).
   *
   * @throws IOException when the force fails; the writer is then {@link #failed()}
   */
  public void sync() throws IOException {
    checkWritable();
    setInterruptAside();
    try {
      channel.force(false);
    } catch (ClosedChannelException e) {
      // Cut by an interrupt: nothing is lost, the records are in the file; force through a
      // reopened channel.
      setInterruptAside();
      repair(e);
      try {
        channel.force(false);
      } catch (IOException again) {
        failure = again;
        throw again;
      }
    } catch (IOException e) {
      failure = e;
      throw e;
    } finally {
      restoreInterrupt();
    }
  }

  /** True once the writer refuses appends: a force failed, or a failed append could not be undone. */
  public boolean failed() {
    return failure != null;
  }

  /** Whether the file holds a record after its header (appended here, or kept by recovery). */
  public boolean holdsRecords() {
    return size > LogFormat.FILE_HEADER_BYTES;
  }

  /** The bytes in the file: header and complete records. */
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

  /**
   * Undoes a failed append: reopens the file and cuts it back to {@link #size}, so no fragment of
   * the failed records stays in front of the next one. With {@code syncWrites} the cut is forced:
   * a fragment must not reappear after a power loss behind records forced later. If this fails
   * too the writer is {@link #failed()}.
   */
  private void repair(IOException cause) throws IOException {
    Closeables.closeSuppressing(cause, channel);
    for (int attempt = 1; ; attempt++) {
      FileChannel ch = null;
      try {
        ch = files.openForWrite(file);
        ch.truncate(size);
        ch.position(size);
        if (syncWrites) {
          ch.force(true);
        }
        channel = ch;
        return;
      } catch (IOException e) {
        Closeables.closeSuppressing(e, ch);
        setInterruptAside();
        if (!(e instanceof ClosedChannelException) || attempt == MAX_INTERRUPTED_ATTEMPTS) {
          cause.addSuppressed(e);
          failure = cause;
          throw cause;
        }
      }
    }
  }

  private void setInterruptAside() {
    interruptSetAside |= Thread.interrupted();
  }

  private void restoreInterrupt() {
    if (interruptSetAside) {
      interruptSetAside = false;
      Thread.currentThread().interrupt();
    }
  }

  /**
   * A little-endian buffer for {@code total} bytes of records, to lay out for one write: the
   * writer's own, reused from append to append (one thread appends at a time), unless the records
   * are larger than {@link #REUSED_BUFFER_BYTES}, whose buffer is not kept.
   */
  private ByteBuffer buffer(long total) {
    ByteBuffer b;
    if (total > REUSED_BUFFER_BYTES) {
      b = ByteBuffer.allocate(Math.toIntExact(total));
    } else {
      if (reused == null || reused.capacity() < total) {
        long grown = Math.max(total, reused == null ? 4096 : 2L * reused.capacity());
        reused = ByteBuffer.allocate((int) Math.min(REUSED_BUFFER_BYTES, grown));
      }
      b = reused.clear();
    }
    return b.order(ByteOrder.LITTLE_ENDIAN);
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
