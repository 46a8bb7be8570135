package dev.strata.sstable;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Gathers the file's bytes in the writer's buffer and writes them to the channel a buffer at a
 * time (a {@code BufferedOutputStream} would bring a new 64 KiB array per table).
 *
 * <p>Not thread-safe: the table writer's.
 */
final class ChannelOutput extends OutputStream {
  private final FileChannel channel;
  private final ByteBuffer buffer;

  ChannelOutput(FileChannel channel, ByteBuffer buffer) {
    this.channel = channel;
    this.buffer = buffer;
  }

  @Override
  public void write(int b) throws IOException {
    if (!buffer.hasRemaining()) {
      drain();
    }
    buffer.put((byte) b);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    if (len > buffer.remaining()) {
      drain();
    }
    if (len > buffer.remaining()) {
      writeFully(ByteBuffer.wrap(b, off, len));
    } else {
      buffer.put(b, off, len);
    }
  }

  @Override
  public void flush() throws IOException {
    drain();
  }

  private void drain() throws IOException {
    buffer.flip();
    writeFully(buffer);
    buffer.clear();
  }

  private void writeFully(ByteBuffer b) throws IOException {
    while (b.hasRemaining()) {
      channel.write(b);
    }
  }
}
