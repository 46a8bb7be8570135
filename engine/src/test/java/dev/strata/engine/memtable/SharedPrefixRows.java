package dev.strata.engine.memtable;

import java.util.Random;

/**
 * Random rows that often share long prefixes, for tests of orders that decide by a row's first
 * bytes ({@link RowPrefix}): bytes from 0x00, 0x01, 0x7F, 0x80 and 0xFF, half the rows starting
 * with a run of 0x01 (up to the whole row), as a Kafka store's rows and zero-padded decimal keys
 * share their first bytes. They share prefixes, end inside and past each prefix word, and hold
 * zero bytes that meet the prefix's zero padding.
 */
public final class SharedPrefixRows {
  private static final byte[] ALPHABET = {0x00, 0x01, 0x7F, (byte) 0x80, (byte) 0xFF};

  /** Five bytes longer than the prefix: rows end before, inside and after either word. */
  public static final int MAX_BYTES = RowPrefix.BYTES + 5;

  private SharedPrefixRows() {}

  /** A row of {@code minLength} to {@code maxLength} bytes. */
  public static byte[] next(Random r, int minLength, int maxLength) {
    byte[] b = new byte[minLength + r.nextInt(maxLength + 1 - minLength)];
    int shared = r.nextBoolean() ? r.nextInt(b.length + 1) : 0;
    for (int i = 0; i < b.length; i++) {
      b[i] = i < shared ? 0x01 : ALPHABET[r.nextInt(ALPHABET.length)];
    }
    return b;
  }
}
