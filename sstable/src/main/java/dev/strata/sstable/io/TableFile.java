package dev.strata.sstable.io;

import com.sun.nio.file.ExtendedOpenOption;
import dev.strata.sstable.format.CorruptTableException;
import dev.strata.sstable.format.LazyLogger;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * A table file opened for positional reads, shared by every thread reading the table.
 *
 * <p>Why not a bare {@link FileChannel}: a FileChannel closes itself, for every thread, when a thread
 * blocked in a read on it is interrupted. An application that interrupts its own threads (a
 * cancelled Future) would then break the table for all later readers, and a reader opening a table
 * would fail on asking its size. Reads and the size here are short, so the caller's interrupt status
 * is set aside for each and restored afterwards, and a channel that an interrupt closed anyway (one
 * arriving mid-read) is reopened and the call retried. Only {@link #close()} closes the file for
 * good.
 *
 * <p><b>Direct reads.</b> Opened with {@code directReads} (RocksDB's {@code use_direct_reads}), the
 * file is read with {@code O_DIRECT}: past the OS page cache, so a cold random read takes from the
 * device only the aligned blocks that cover it, where the kernel's read-ahead takes several times
 * that, and nothing a table read brings in pushes other pages out. See {@link DirectReads} for the
 * alignment. A file system that refuses {@code O_DIRECT} (tmpfs before Linux 6.6: {@code EINVAL})
 * gets buffered reads, with one log line in the process's life, never a failed open.
 *
 * <p>Thread-safe.
 */
public final class TableFile implements Closeable {
  private static final System.Logger LOG = LazyLogger.of(TableFile.class);

  /** Set by the first fallback to buffered reads, so a directory of tables logs it once. */
  private static final AtomicBoolean LOGGED_FALLBACK = new AtomicBoolean();

  /** How a table file's channel is opened; tests substitute one that fails. */
  @FunctionalInterface
  interface Opener {
    FileChannel open(Path path, OpenOption... options) throws IOException;
  }

  private final Path path;
  private final Opener opener;
  /** Direct reads of the file's alignment, or null for buffered reads. */
  private final DirectReads direct;
  private volatile FileChannel channel;
  private volatile boolean closed;
  /** Reads this file served, however large: for tests of how many reads an open takes. */
  private final LongAdder reads = new LongAdder();

  private TableFile(Path path, Opener opener, DirectReads direct, FileChannel channel) {
    this.path = path;
    this.opener = opener;
    this.direct = direct;
    this.channel = channel;
  }

  /** Opens {@code path} for buffered reads. */
  static TableFile open(Path path) throws IOException {
    return open(path, false);
  }

  /** Opens {@code path}, for direct reads when {@code directReads} and the file system allows them. */
  public static TableFile open(Path path, boolean directReads) throws IOException {
    return open(path, directReads, FileChannel::open);
  }

  static TableFile open(Path path, boolean directReads, Opener opener) throws IOException {
    if (directReads) {
      try {
        DirectReads direct = new DirectReads(Files.getFileStore(path).getBlockSize());
        return new TableFile(path, opener, direct, opener.open(path, directOptions()));
      } catch (NoSuchFileException | AccessDeniedException e) {
        throw e; // a buffered open fails the same way
      } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
        if (LOGGED_FALLBACK.compareAndSet(false, true)) {
          LOG.log(System.Logger.Level.WARNING, "direct reads refused for " + path + " (" + e
              + "); tables are read through the page cache (logged once)");
        }
      }
    }
    return new TableFile(path, opener, null, opener.open(path, StandardOpenOption.READ));
  }

  private static OpenOption[] directOptions() {
    return new OpenOption[] {StandardOpenOption.READ, ExtendedOpenOption.DIRECT};
  }

  public Path path() {
    return path;
  }

  /** Whether reads bypass the page cache: direct reads were asked for and the file system took them. */
  public boolean readsDirect() {
    return direct != null;
  }

  /** The file's length; like a read, whatever the caller's interrupt status. */
  public long size() throws IOException {
    return onChannel(SIZE, 0, null, null, 0);
  }

  /**
   * Reads exactly {@code length} bytes at {@code position}.
   *
   * @throws CorruptTableException when the file ends first
   */
  public byte[] readFully(long position, int length) throws IOException {
    byte[] b = new byte[length];
    readFully(position, b, length);
    return b;
  }

  /**
   * Reads exactly {@code length} bytes at {@code position} into the start of {@code into}.
   *
   * @throws CorruptTableException when the file ends first
   */
  public void readFully(long position, byte[] into, int length) throws IOException {
    assert into.length >= length;
    reads.increment();
    onChannel(READ, position, into, null, length);
  }

  /**
   * {@link #readFully(long, byte[], int)} through {@code wrap}, a heap buffer over all of {@code
   * into} that the caller keeps for its reads: no buffer is made per read. Leaves {@code wrap}'s
   * position and limit undefined.
   *
   * @throws CorruptTableException when the file ends first
   */
  public void readFully(long position, byte[] into, ByteBuffer wrap, int length) throws IOException {
    assert into.length >= length && wrap.array() == into && wrap.arrayOffset() == 0;
    reads.increment();
    onChannel(READ, position, into, wrap, length);
  }

  /**
   * Reads exactly {@code into.remaining()} bytes at {@code position} into {@code into} from its
   * position on (a direct buffer is filled without a heap copy, unless the file reads direct, where
   * the bytes pass through this thread's aligned buffer). The buffer's position and limit are left
   * as they were.
   *
   * @throws CorruptTableException when the file ends first
   */
  public void readFully(long position, ByteBuffer into) throws IOException {
    reads.increment();
    onChannel(READ_BUFFER, position, null, into, into.remaining());
  }

  /** How many reads this file has served (each {@code readFully}, whatever its length). */
  public long reads() {
    return reads.sum();
  }

  /**
   * One call on the channel: {@link #READ} or {@link #SIZE}, constants so that the read path makes
   * no object per call.
   */
  @FunctionalInterface
  private interface ChannelCall {
    long run(TableFile file, FileChannel ch, long position, byte[] into, ByteBuffer intoBuffer, int length)
        throws IOException;
  }

  private static final ChannelCall READ = (file, ch, position, into, intoBuffer, length) -> {
    if (file.direct != null) {
      file.direct.read(ch, file.path, position, into, length);
    } else {
      ByteBuffer buf = intoBuffer != null ? intoBuffer.clear().limit(length) : ByteBuffer.wrap(into, 0, length);
      file.read(ch, position, buf, length);
    }
    return length;
  };

  private static final ChannelCall READ_BUFFER = (file, ch, position, into, intoBuffer, length) -> {
    if (file.direct != null) {
      file.direct.read(ch, file.path, position, intoBuffer);
    } else {
      file.read(ch, position, intoBuffer.duplicate(), length);
    }
    return length;
  };

  private static final ChannelCall SIZE = (file, ch, position, into, intoBuffer, length) -> ch.size();

  /**
   * Runs {@code call} with the caller's interrupt status set aside (a FileChannel call that sees it
   * set closes the channel for every thread), restoring it afterwards; a channel an interrupt closed
   * anyway (one arriving mid-call) is reopened and the call retried.
   */
  private long onChannel(ChannelCall call, long position, byte[] into, ByteBuffer intoBuffer, int length)
      throws IOException {
    boolean interrupted = Thread.interrupted();
    try {
      while (true) {
        FileChannel ch = channel;
        try {
          return call.run(this, ch, position, into, intoBuffer, length);
        } catch (ClosedChannelException e) {
          // Only close() and interrupts close the channel; unless it was close(), reopen and retry.
          if (closed) {
            throw e;
          }
          interrupted |= Thread.interrupted();
          reopen(ch);
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Fills {@code buf} from its position to its limit, {@code length} bytes, from {@code position} on. */
  private void read(FileChannel ch, long position, ByteBuffer buf, int length) throws IOException {
    int start = buf.position();
    while (buf.hasRemaining()) {
      if (ch.read(buf, position + buf.position() - start) < 0) {
        throw new CorruptTableException(
            path,
            position + buf.position() - start,
            "unexpected end of file reading %d bytes at %d",
            length,
            position);
      }
    }
  }

  /** Replaces {@code dead} with a fresh channel, once, however many readers saw it die. */
  private synchronized void reopen(FileChannel dead) throws IOException {
    if (channel == dead && !closed) {
      channel = direct != null
          ? opener.open(path, directOptions())
          : opener.open(path, StandardOpenOption.READ);
    }
  }

  /** Closes the file. Idempotent. */
  @Override
  public synchronized void close() throws IOException {
    closed = true;
    channel.close();
  }
}
