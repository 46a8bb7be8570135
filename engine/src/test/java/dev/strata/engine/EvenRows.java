package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A database whose even rows of {@code [0, rows)} hold a value derived from the row number and whose
 * odd rows are absent, for tests that read it while something else happens to it (a close,
 * interrupts): every answer can be checked without a model.
 */
public final class EvenRows {
  private static final byte[] NO_COLUMN = {};

  private final int rows;

  public EvenRows(int rows) {
    this.rows = rows;
  }

  public static byte[] row(int i) {
    return String.format("row-%05d", i).getBytes(StandardCharsets.UTF_8);
  }

  public static byte[] value(int i) {
    return ("value-" + i + "-" + "x".repeat(i % 50)).getBytes(StandardCharsets.UTF_8);
  }

  /** Row {@code i}'s value, or null for an odd row. */
  public static byte[] expected(int i) {
    return i % 2 == 0 ? value(i) : null;
  }

  /** Puts every even row, flushing after each {@code flushEvery} puts. */
  public void write(Db db, int flushEvery) throws IOException {
    for (int i = 0, puts = 0; i < rows; i += 2) {
      db.put(row(i), value(i));
      if (++puts % flushEvery == 0) {
        db.flush();
      }
    }
  }

  /**
   * One random call of sort {@code kind}, its answer checked: 0 a Get, 1 a batch of up to 64 keys
   * with {@code mayContain} of each present one, 2 a cursor stepping forward from a seek and back
   * from a {@code seekForPrev}.
   */
  public void read(Db db, int kind, Random r) throws IOException {
    switch (kind) {
      case 0 -> {
        int i = r.nextInt(rows);
        assertArrayEquals(expected(i), db.get(row(i)), "get " + i);
      }
      case 1 -> {
        int n = 1 + r.nextInt(64);
        List<byte[]> keys = new ArrayList<>(n);
        int[] asked = new int[n];
        for (int k = 0; k < n; k++) {
          asked[k] = r.nextInt(rows);
          keys.add(row(asked[k]));
        }
        List<byte[]> got = db.multiGet(keys);
        for (int k = 0; k < n; k++) {
          int i = asked[k];
          assertArrayEquals(expected(i), got.get(k), "multiGet " + i);
          if (i % 2 == 0) {
            assertTrue(db.mayContain(row(i), NO_COLUMN), "mayContain " + i);
          }
        }
      }
      default -> {
        int i = 1 + r.nextInt(rows - 10);
        try (CellCursor c = db.cursor()) {
          c.seek(row(i), NO_COLUMN);
          for (int at = i + i % 2, step = 0; step < 4; at += 2, step++) {
            assertCursorAt(c, at);
            c.next();
          }
          c.seekForPrev(row(i), NO_COLUMN);
          for (int at = i - i % 2, step = 0; step < 4 && at >= 0; at -= 2, step++) {
            assertCursorAt(c, at);
            c.prev();
          }
        }
      }
    }
  }

  private static void assertCursorAt(CellCursor c, int i) {
    assertTrue(c.isValid(), "cursor at " + i);
    assertArrayEquals(row(i), c.row(), "cursor row " + i);
    assertArrayEquals(value(i), c.value(), "cursor value " + i);
  }
}
