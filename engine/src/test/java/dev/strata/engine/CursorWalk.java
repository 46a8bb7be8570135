package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.strata.engine.CellModel.Key;
import java.util.Arrays;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.function.Consumer;

/**
 * Drives a {@link CellCursor} and a model's cells side by side: random seeks of every kind, then
 * random runs of next and prev that change direction at any point, asserting after every move that
 * the cursor stands where the model says (or is invalid where the model has no cell).
 *
 * <p>Not thread-safe.
 */
final class CursorWalk {
  private final NavigableMap<Key, byte[]> cells;
  private final Random r;
  private final Consumer<String> note;
  private Map.Entry<Key, byte[]> at;

  CursorWalk(CellModel model, Random r, Consumer<String> note) {
    this.cells = model.cells();
    this.r = r;
    this.note = note;
  }

  /** {@code seeks} random seeks on {@code c}, each followed by up to {@code steps} moves. */
  void run(CellCursor c, int seeks, int steps, byte[][] rows, byte[][] columns) {
    for (int i = 0; i < seeks; i++) {
      byte[] row = rows[r.nextInt(rows.length)];
      byte[] column = columns[r.nextInt(columns.length)];
      switch (r.nextInt(4)) {
        case 0 -> {
          note.accept("cursor seekToFirst");
          c.seekToFirst();
          at = cells.firstEntry();
        }
        case 1 -> {
          note.accept("cursor seekToLast");
          c.seekToLast();
          at = cells.lastEntry();
        }
        case 2 -> {
          note.accept("cursor seek " + CellModel.hex(row) + "/" + CellModel.hex(column));
          c.seek(row, column);
          at = cells.ceilingEntry(new Key(row, column));
        }
        default -> {
          note.accept("cursor seekForPrev " + CellModel.hex(row) + "/" + CellModel.hex(column));
          c.seekForPrev(row, column);
          at = cells.floorEntry(new Key(row, column));
        }
      }
      check(c);
      for (int s = 0; s < steps && at != null; s++) {
        if (r.nextBoolean()) {
          c.next();
          at = cells.higherEntry(at.getKey());
        } else {
          c.prev();
          at = cells.lowerEntry(at.getKey());
        }
        check(c);
      }
    }
  }

  private void check(CellCursor c) {
    if (at == null) {
      assertEquals(false, c.isValid(), "cursor should be invalid");
      return;
    }
    String want = CellModel.describe(at.getKey().row(), at.getKey().column(), at.getValue());
    String got =
        c.isValid() ? CellModel.describe(c.row(), c.column(), c.value()) : "invalid cursor";
    assertEquals(want, got, "cursor position");
    assert Arrays.equals(c.row(), at.getKey().row());
  }
}
