package dev.strata.kafka;

import dev.strata.engine.Db;
import java.util.Arrays;

/**
 * How a store lays its data out in its {@link Db}. A Kafka key may be empty and a Strata row may
 * not, so every key is stored as the row {@code 0x01 key} (one byte longer, same order). The
 * changelog offsets are commit markers, outside the key space ({@link ChangelogOffsets}); stores
 * written before kept them in the row {@code 0x00}, which sorts before every key and is never seen
 * by a range, and which the first open of such a store replaces by markers.
 *
 * <p>Immutable (static methods only).
 */
final class StoreKeys {
  /** The row that held the changelog offsets before they became commit markers. */
  static final byte[] OFFSETS_ROW = {0x00};

  /** The first row of data, inclusive. */
  static final byte[] FIRST = {0x01};

  /** The end of the data rows, exclusive. */
  static final byte[] END = {0x02};

  /** The empty column every key is stored under. */
  static final byte[] COLUMN = new byte[0];

  /** The longest key a store takes. */
  static final int MAX_KEY_LENGTH = Db.MAX_ROW_LENGTH - 1;

  private StoreKeys() {}

  /** The row of {@code key}; IllegalArgumentException when it is too long. */
  static byte[] row(byte[] key) {
    if (key.length > MAX_KEY_LENGTH) {
      throw new IllegalArgumentException("key of " + key.length + " bytes is over the limit of "
          + MAX_KEY_LENGTH);
    }
    byte[] row = new byte[key.length + 1];
    row[0] = FIRST[0];
    System.arraycopy(key, 0, row, 1, key.length);
    return row;
  }

  /** The key stored in {@code row}. */
  static byte[] key(byte[] row) {
    return Arrays.copyOfRange(row, 1, row.length);
  }

  /**
   * The first row after every row that starts with {@code row} (exclusive end of a prefix scan);
   * {@link #END} when the prefix is all 0xff.
   */
  static byte[] prefixEnd(byte[] row) {
    byte[] end = row.clone();
    for (int i = end.length - 1; i > 0; i--) {
      if (end[i] != (byte) 0xff) {
        end[i]++;
        return Arrays.copyOf(end, i + 1);
      }
    }
    return END.clone();
  }
}
