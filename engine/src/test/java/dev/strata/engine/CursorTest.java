package dev.strata.engine;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Cursor edge cases: empty databases, seeks off either end, tombstones both ways, lifecycle. */
final class CursorTest {
  private static final byte[] EMPTY = new byte[0];

  @TempDir Path dir;

  private static byte[] b(String s) {
    return s.getBytes(UTF_8);
  }

  private static DbOptions manual() {
    return DbOptions.builder().autoCompaction(false).build();
  }

  private static String at(CellCursor c) {
    return new String(c.row(), UTF_8) + "/" + new String(c.column(), UTF_8) + "=" + new String(c.value(), UTF_8);
  }

  private static List<String> forward(CellCursor c) {
    List<String> out = new ArrayList<>();
    for (c.seekToFirst(); c.isValid(); c.next()) {
      out.add(at(c));
    }
    return out;
  }

  private static List<String> backward(CellCursor c) {
    List<String> out = new ArrayList<>();
    for (c.seekToLast(); c.isValid(); c.prev()) {
      out.add(0, at(c));
    }
    return out;
  }

  @Test
  void emptyDatabase_everySeekIsInvalid() throws IOException {
    try (Db db = Db.open(dir, manual()); CellCursor c = db.cursor()) {
      assertFalse(c.isValid(), "unpositioned");
      assertThrows(IllegalStateException.class, c::row);
      c.seekToFirst();
      assertFalse(c.isValid());
      c.seekToLast();
      assertFalse(c.isValid());
      c.seek(b("a"), EMPTY);
      assertFalse(c.isValid());
      c.seekForPrev(b("a"), EMPTY);
      assertFalse(c.isValid());
      assertThrows(IllegalStateException.class, c::next);
      assertThrows(IllegalStateException.class, c::prev);
      assertThrows(IllegalStateException.class, c::value);
    }
  }

  @Test
  void seeksOffEitherEnd_areInvalid_andSeeksBetweenLandOnNeighbours() throws IOException {
    try (Db db = Db.open(dir, manual())) {
      db.put(b("b"), b("1"), b("x"));
      db.flush();
      db.put(b("d"), b("1"), b("y"));
      try (CellCursor c = db.cursor()) {
        c.seekForPrev(b("a"), b("zz"));
        assertFalse(c.isValid(), "seekForPrev before the first cell");
        c.seek(b("d"), b("2"));
        assertFalse(c.isValid(), "seek past the last cell");
        c.seek(b("c"), EMPTY);
        assertEquals("d/1=y", at(c));
        c.seekForPrev(b("c"), EMPTY);
        assertEquals("b/1=x", at(c));
        c.seekForPrev(b("b"), b("1"));
        assertEquals("b/1=x", at(c), "seekForPrev is inclusive");
        c.seek(b("b"), b("1"));
        assertEquals("b/1=x", at(c), "seek is inclusive");
        c.prev();
        assertFalse(c.isValid());
      }
    }
  }

  @Test
  void tombstones_applyAlikeInBothDirections_acrossTablesAndMemtable() throws IOException {
    try (Db db = Db.open(dir, manual())) {
      for (String row : new String[] {"a", "b", "c"}) {
        for (String col : new String[] {"", "x", "y", "z"}) {
          db.put(b(row), b(col), b(row + col));
        }
      }
      db.flush();
      db.deleteRow(b("b")); // in the memtable; the row's cells are in the table
      db.put(b("b"), b("y"), b("new"));
      db.delete(b("c"), b("z"));
      db.flush();
      db.delete(b("a"), EMPTY);
      db.put(b("c"), b("x"), b("cx2"));
      List<String> want =
          List.of("a/x=ax", "a/y=ay", "a/z=az", "b/y=new", "c/=c", "c/x=cx2", "c/y=cy");
      try (CellCursor c = db.cursor()) {
        assertEquals(want, forward(c));
        assertEquals(want, backward(c));
        c.seekForPrev(b("b"), b("zz")); // enters row b from its end: its tombstone is looked up
        assertEquals("b/y=new", at(c));
        c.seek(b("b"), b("a")); // enters row b mid-way
        assertEquals("b/y=new", at(c));
        c.prev();
        assertEquals("a/z=az", at(c));
        c.next();
        assertEquals("b/y=new", at(c));
        c.next();
        assertEquals("c/=c", at(c));
      }
    }
  }

  @Test
  void directionChanges_atEveryCell_retraceTheSameCells() throws IOException {
    try (Db db = Db.open(dir, manual())) {
      for (int i = 0; i < 30; i++) {
        db.put(b("r" + (i % 7)), b("c" + i), b("v" + i));
        if (i % 10 == 9) {
          db.flush();
        }
      }
      try (CellCursor c = db.cursor()) {
        List<String> all = forward(c);
        c.seekToFirst();
        for (int i = 0; i < all.size(); i++) {
          assertEquals(all.get(i), at(c));
          if (i > 0) {
            c.prev();
            assertEquals(all.get(i - 1), at(c));
            c.next();
          }
          c.next();
        }
        assertFalse(c.isValid());
      }
    }
  }

  @Test
  void cursor_atSnapshot_seesThatMoment_andIgnoresLaterWrites() throws IOException {
    try (Db db = Db.open(dir, manual())) {
      db.put(b("a"), b("c"), b("1"));
      db.put(b("b"), b("c"), b("2"));
      try (Snapshot s = db.snapshot()) {
        db.put(b("a"), b("c"), b("changed"));
        db.deleteRow(b("b"));
        db.put(b("c"), b("c"), b("3"));
        db.compact();
        try (CellCursor c = db.cursor(s)) {
          assertEquals(List.of("a/c=1", "b/c=2"), backward(c));
          assertEquals(List.of("a/c=1", "b/c=2"), forward(c));
        }
        try (CellCursor c = db.cursor()) {
          db.put(b("d"), b("c"), b("later")); // after the cursor was opened: not seen
          assertEquals(List.of("a/c=changed", "c/c=3"), forward(c));
        }
      }
    }
  }

  @Test
  void backward_readsOnlyTheBlocksItVisits() throws IOException {
    DbOptions options = DbOptions.builder().autoCompaction(false).blockCacheBytes(0).blockSizeBytes(256).build();
    try (Db db = Db.open(dir, options)) {
      for (int i = 0; i < 2000; i++) {
        db.put(b(String.format("row%05d", i)), b("c"), new byte[64]);
      }
      db.flush();
      long before = db.stats().dataBlocksRead();
      try (CellCursor c = db.cursor()) {
        c.seekToLast();
        for (int i = 0; i < 5; i++) {
          c.prev();
        }
        assertEquals("row01994", new String(c.row(), UTF_8));
      }
      long read = db.stats().dataBlocksRead() - before;
      // Over 500 data blocks in the table; a buffered forward pass would read them all.
      assertTrue(read < 40, "data blocks read: " + read);
    }
  }

  @Test
  void closedCursor_andCursorOfAClosedDatabase_throwIllegalState() throws IOException {
    CellCursor survivor;
    try (Db db = Db.open(dir, manual())) {
      db.put(b("a"), b("c"), b("1"));
      db.flush();
      CellCursor c = db.cursor();
      c.seekToFirst();
      c.close();
      c.close(); // idempotent
      assertThrows(IllegalStateException.class, c::seekToFirst);
      assertThrows(IllegalStateException.class, c::isValid);
      survivor = db.cursor();
      survivor.seekToFirst();
      assertTrue(survivor.isValid());
    }
    assertThrows(IllegalStateException.class, survivor::next);
    assertThrows(IllegalStateException.class, survivor::seekToLast);
    survivor.close();
  }

  @Test
  void nullArguments_throwNullPointer() throws IOException {
    try (Db db = Db.open(dir, manual()); CellCursor c = db.cursor()) {
      assertThrows(NullPointerException.class, () -> c.seek(null, EMPTY));
      assertThrows(NullPointerException.class, () -> c.seekForPrev(b("a"), null));
      assertThrows(NullPointerException.class, () -> db.cursor(null));
    }
  }
}
