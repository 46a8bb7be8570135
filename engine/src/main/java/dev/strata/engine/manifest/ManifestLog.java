package dev.strata.engine.manifest;

import dev.strata.engine.fs.Directories;
import dev.strata.engine.fs.FileLayer;
import dev.strata.engine.fs.FileNames;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Writes the manifest as a log of edits ({@link ManifestFormat} version 2): each change is one
 * record appended to {@code MANIFEST} and fsynced, a few hundred bytes however many tables the
 * database holds. When the log has grown past {@link #REWRITE_FACTOR} times its snapshot (plus
 * {@link #REWRITE_SLACK_BYTES}), the next change rewrites it whole as one snapshot instead: write
 * {@code MANIFEST.tmp}, fsync, rename over {@code MANIFEST}, fsync the directory. The first write
 * after open is such a rewrite too, so a version-1 manifest or a torn tail never has a record
 * appended after it.
 *
 * <p><b>Failure semantics, exactly.</b> A write that returns is durable. A write that throws {@link
 * ManifestWriteException} leaves the durable manifest holding either the state before it or the
 * state after it, never anything else: an append cut short is a torn tail, dropped when read; a
 * rewrite replaces the file atomically. {@link ManifestWriteException#mayBeDurable()} says which
 * outcomes are possible: false when the new state certainly did not reach the file (the append's
 * write failed, or the rewrite failed before its rename), true when it may have (an fsync after the
 * write failed, or the directory fsync after the rename: the bytes or the new name may reach the
 * disk later or never). The caller must then keep the files of both states, and the next write is a
 * whole rewrite, which makes the durable state exactly the one it writes.
 *
 * <p>Not thread-safe: the engine lets one manifest write run at a time.
 */
public final class ManifestLog implements Closeable {
  /** The log is rewritten once it is this many times the size of its snapshot... */
  static final int REWRITE_FACTOR = 4;

  /** ...plus this many bytes, so a small database is not rewritten on every change. */
  static final long REWRITE_SLACK_BYTES = 16 << 10;

  private final Path dir;
  /** Every byte, rename and directory sync of the manifest goes through it. */
  private final FileLayer files;
  /** The open MANIFEST for appends; null until the first rewrite and after a failure. */
  private FileChannel channel;
  private long size;
  private long snapshotBytes;
  private long rewrites;

  /** A log of {@code dir}'s manifest on the real file system; its first write rewrites it whole. */
  public ManifestLog(Path dir) {
    this(dir, FileLayer.real());
  }

  /** A log of {@code dir}'s manifest written through {@code files}; its first write rewrites it. */
  public ManifestLog(Path dir, FileLayer files) {
    this.dir = dir;
    this.files = Objects.requireNonNull(files, "files");
  }

  /**
   * Records {@code edit}, after which the state is {@code after}: appended, or a whole rewrite of
   * {@code after} when one is due; durable on return.
   *
   * @throws ManifestWriteException when it could not be made durable (see the class comment)
   * @throws IllegalArgumentException when {@code after} breaks an invariant: the engine never
   *     persists a state it could not reopen
   */
  public void write(ManifestEdit edit, Manifest after) throws ManifestWriteException {
    boolean interrupted = Thread.interrupted(); // an interrupt would close the channel mid-write
    try {
      writeUninterrupted(edit, after);
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private void writeUninterrupted(ManifestEdit edit, Manifest after)
      throws ManifestWriteException {
    checkState(after);
    if (channel == null || size > REWRITE_FACTOR * snapshotBytes + REWRITE_SLACK_BYTES) {
      rewriteUninterrupted(after);
      return;
    }
    ByteBuffer record = ByteBuffer.wrap(ManifestFormat.editRecord(edit));
    try {
      while (record.hasRemaining()) {
        channel.write(record, size + record.position());
      }
    } catch (IOException e) {
      abandonChannel(e);
      throw new ManifestWriteException("could not append to " + file(), e, false);
    }
    try {
      channel.force(false);
    } catch (IOException e) {
      abandonChannel(e);
      throw new ManifestWriteException("could not fsync " + file(), e, true);
    }
    size += record.capacity();
  }

  /**
   * Replaces the manifest with one snapshot of {@code state}; durable on return.
   *
   * @throws ManifestWriteException when it could not be made durable (see the class comment)
   */
  public void rewrite(Manifest state) throws ManifestWriteException {
    boolean interrupted = Thread.interrupted(); // an interrupt would close the channel mid-write
    try {
      rewriteUninterrupted(state);
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private void rewriteUninterrupted(Manifest state) throws ManifestWriteException {
    checkState(state);
    abandonChannel(null);
    byte[] bytes = ManifestFormat.encode(state);
    Path temp = FileNames.manifestTemp(dir);
    try {
      Directories.writeAndRename(files, file(), temp, bytes);
    } catch (IOException e) {
      throw new ManifestWriteException("could not replace " + file() + " by " + temp, e, false);
    }
    try {
      files.syncDirectory(dir);
      channel = files.openForWrite(file());
    } catch (IOException e) {
      abandonChannel(e);
      throw new ManifestWriteException("could not make the rename of " + file() + " durable", e, true);
    }
    size = bytes.length;
    snapshotBytes = bytes.length;
    rewrites++;
  }

  /** Whole rewrites so far; for tests. */
  public long rewrites() {
    return rewrites;
  }

  /** The manifest's length in bytes as this log wrote it; for tests. */
  public long size() {
    return size;
  }

  @Override
  public void close() throws IOException {
    FileChannel ch = channel;
    channel = null;
    if (ch != null) {
      ch.close();
    }
  }

  private Path file() {
    return FileNames.manifest(dir);
  }

  private static void checkState(Manifest state) {
    String problem = state.problem();
    if (problem != null) {
      throw new IllegalArgumentException("refusing to write a broken manifest: " + problem);
    }
  }

  /** Closes the channel: after a failure nothing is appended until a rewrite succeeds. */
  private void abandonChannel(IOException cause) {
    FileChannel ch = channel;
    channel = null;
    if (ch != null) {
      try {
        ch.close();
      } catch (IOException e) {
        if (cause != null) {
          cause.addSuppressed(e);
        }
      }
    }
  }

}
