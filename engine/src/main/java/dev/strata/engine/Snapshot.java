package dev.strata.engine;

/**
 * A handle on the database as it was at one moment: reads given a snapshot ({@link Db#get(Snapshot,
 * byte[], byte[])}, {@link Db#getRow(Snapshot, byte[])}, {@link Db#scan(Snapshot, byte[], byte[])},
 * {@link Db#cursor(Snapshot)}) see exactly the writes acknowledged before {@link Db#snapshot()}
 * returned, however long the handle is held: flushes and compactions keep every version a live
 * snapshot can see. Close it to let them drop those versions.
 *
 * <pre>{@code
 * try (Snapshot s = db.snapshot()) {
 *   db.put(row, column, newValue);
 *   byte[] old = db.get(s, row, column);   // the value before the put
 * }
 * }</pre>
 *
 * <p>Using a snapshot after it or its database was closed throws {@link IllegalStateException}.
 *
 * <p>Thread-safe.
 */
public final class Snapshot implements AutoCloseable {
  private final Snapshots owner;
  private final long sequence;
  private final long createdNanos;
  private volatile boolean closed;

  Snapshot(Snapshots owner, long sequence, long createdNanos) {
    this.owner = owner;
    this.sequence = sequence;
    this.createdNanos = createdNanos;
  }

  /** The sequence number of the last write this snapshot sees. */
  public long sequence() {
    return sequence;
  }

  /** Releases the snapshot, so compaction may drop the versions only it could see. Idempotent. */
  @Override
  public void close() {
    if (!closed) {
      closed = true;
      owner.release(this);
    }
  }

  Snapshots owner() {
    return owner;
  }

  long createdNanos() {
    return createdNanos;
  }

  boolean isClosed() {
    return closed;
  }

  @Override
  public String toString() {
    return "Snapshot[" + sequence + (closed ? ", closed]" : "]");
  }
}
