package dev.strata.kafka;

import dev.strata.engine.CellCursor;
import dev.strata.engine.Db;
import dev.strata.engine.Snapshot;
import java.io.IOException;
import java.util.Arrays;
import java.util.NoSuchElementException;
import java.util.function.Consumer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.KeyValueIterator;

/**
 * The key-value pairs of a store between two bounds, in either direction, as of the moment the
 * iterator was made: it holds a {@link Snapshot} and a cursor over it, and writes made after it was
 * created are not seen. Closing it (or closing the store) releases both; after that, every call
 * but {@code close} throws {@link InvalidStateStoreException}.
 *
 * <p>Not thread-safe: one reader at a time, as Kafka Streams' iterators.
 */
final class StrataIterator implements KeyValueIterator<Bytes, byte[]> {
  /** The lowest row, always inclusive. */
  private final byte[] lower;
  /** The highest row, or the end of the range when {@link #upperInclusive} is false. */
  private final byte[] upper;
  private final boolean upperInclusive;
  private final boolean forward;
  private final String storeName;
  private final Consumer<StrataIterator> onClose;
  private final Snapshot snapshot;
  private final CellCursor cursor;
  private KeyValue<Bytes, byte[]> next;
  private boolean open = true;

  /**
   * Iterates rows in [{@code lower}, {@code upper}] (or [{@code lower}, {@code upper}) when {@code
   * upperInclusive} is false) of {@code db}; {@code onClose} hears of the close once.
   */
  StrataIterator(Db db, String storeName, byte[] lower, byte[] upper, boolean upperInclusive,
      boolean forward, Consumer<StrataIterator> onClose) throws IOException {
    this.lower = lower;
    this.upper = upper;
    this.upperInclusive = upperInclusive;
    this.forward = forward;
    this.storeName = storeName;
    this.onClose = onClose;
    this.snapshot = db.snapshot();
    CellCursor c = null;
    try {
      c = db.cursor(snapshot);
      if (forward) {
        c.seek(lower, StoreKeys.COLUMN);
      } else {
        c.seekForPrev(upper, StoreKeys.COLUMN);
        if (!upperInclusive && c.isValid() && Arrays.equals(c.row(), upper)) {
          c.prev();
        }
      }
    } catch (IOException | RuntimeException e) {
      if (c != null) {
        c.close();
      }
      snapshot.close();
      throw e;
    }
    this.cursor = c;
    advance();
  }

  /** Reads the cursor's cell into {@link #next} if it is in range, and steps past it. */
  private void advance() {
    next = null;
    if (!cursor.isValid()) {
      return;
    }
    byte[] row = cursor.row();
    if (Arrays.compareUnsigned(row, lower) < 0) {
      return;
    }
    int c = Arrays.compareUnsigned(row, upper);
    if (c > 0 || (c == 0 && !upperInclusive)) {
      return;
    }
    next = KeyValue.pair(Bytes.wrap(StoreKeys.key(row)), cursor.value());
    if (forward) {
      cursor.next();
    } else {
      cursor.prev();
    }
  }

  private void checkOpen() {
    if (!open) {
      throw new InvalidStateStoreException("the iterator of store " + storeName
          + " is closed");
    }
  }

  @Override
  public boolean hasNext() {
    checkOpen();
    return next != null;
  }

  @Override
  public KeyValue<Bytes, byte[]> next() {
    checkOpen();
    if (next == null) {
      throw new NoSuchElementException();
    }
    KeyValue<Bytes, byte[]> kv = next;
    advance();
    return kv;
  }

  @Override
  public Bytes peekNextKey() {
    checkOpen();
    if (next == null) {
      throw new NoSuchElementException();
    }
    return next.key;
  }

  /** Releases the cursor and the snapshot; idempotent. */
  @Override
  public void close() {
    if (!open) {
      return;
    }
    open = false;
    try {
      cursor.close();
    } finally {
      snapshot.close();
      onClose.accept(this);
    }
  }
}
