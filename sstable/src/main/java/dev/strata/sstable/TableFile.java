package dev.strata.sstable;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A table file opened for positional reads, shared by every thread reading the table.
 *
 * <p>Why not a bare {@link FileChannel}: a FileChannel closes itself, for every thread, when a thread
 * blocked in a read on it is interrupted. An application that interrupts its own threads (a
 * cancelled Future) would then break the table for all later readers. Reads here are short, so the
 * caller's interrupt status is set aside for the read and restored afterwards, and a channel that an
 * interrupt closed anyway (one arriving mid-read) is reopened and the read retried. Only {@link
 * #close()} closes the file for good.
 *
 * <p>Thread-safe.
 */
final class TableFile implements Closeable {
  private final Path path;
  private volatile FileChannel channel;
  private volatile boolean closed;

  private TableFile(Path path, FileChannel channel) {
    this.path = path;
    this.channel = channel;
  }

  static TableFile open(Path path) throws IOException {
    return new TableFile(path, FileChannel.open(path, StandardOpenOption.READ));
  }

  Path path() {
    return path;
  }

  long size() throws IOException {
    return channel.size();
  }

  /**
   * Reads exactly {@code length} bytes at {@code position}.
   *
   * @throws CorruptTableException when the file ends first
   */
  byte[] readFully(long position, int length) throws IOException {
    byte[] b = new byte[length];
    readFully(position, b, length);
    return b;
  }

  /**
   * Reads exactly {@code length} bytes at {@code position} into the start of {@code into}, which a
   * bulk pass reuses block after block.
   *
   * @throws CorruptTableException when the file ends first
   */
  void readFully(long position, byte[] into, int length) throws IOException {
    assert into.length >= length;
    boolean interrupted = Thread.interrupted();
    try {
      while (true) {
        FileChannel ch = channel;
        try {
          read(ch, position, into, length);
          return;
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

  private void read(FileChannel ch, long position, byte[] into, int length) throws IOException {
    ByteBuffer buf = ByteBuffer.wrap(into, 0, length);
    while (buf.hasRemaining()) {
      if (ch.read(buf, position + buf.position()) < 0) {
        throw new CorruptTableException(
            path,
            position + buf.position(),
            "unexpected end of file reading %d bytes at %d",
            length,
            position);
      }
    }
  }

  /** Replaces {@code dead} with a fresh channel, once, however many readers saw it die. */
  private synchronized void reopen(FileChannel dead) throws IOException {
    if (channel == dead && !closed) {
      channel = FileChannel.open(path, StandardOpenOption.READ);
    }
  }

  /** Closes the file. Idempotent. */
  @Override
  public synchronized void close() throws IOException {
    closed = true;
    channel.close();
  }
}
