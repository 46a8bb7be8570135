package dev.strata.engine;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Snapshots: reads as of the moment taken, across flushes and compactions, and their lifecycle. */
final class SnapshotTest {
  private static final byte[] EMPTY = new byte[0];

  @TempDir Path dir;

  private static byte[] b(String s) {
    return s.getBytes(UTF_8);
  }

  private static DbOptions manual() {
    return DbOptions.builder().autoCompaction(false).build();
  }

  @Test
  void get_seesValueAsOfSnapshot_acrossFlushAndCompaction() throws IOException {
    try (Db db = Db.open(dir, manual())) {
      db.put(b("r"), b("c"), b("v1"));
      try (Snapshot s = db.snapshot()) {
        db.put(b("r"), b("c"), b("v2"));
        db.flush(); // the flush would keep only v2 without the snapshot
        assertArrayEquals(b("v1"), db.get(s, b("r"), b("c")));
        db.put(b("r"), b("c"), b("v3"));
        db.flush();
        db.compact(); // merges both tables into the bottom level
        assertArrayEquals(b("v1"), db.get(s, b("r"), b("c")));
        assertArrayEquals(b("v3"), db.get(b("r"), b("c")));
      }
    }
  }

  @Test
  void deletes_afterSnapshot_areNotSeen_evenAtTheBottomLevel() throws IOException {
    try (Db db = Db.open(dir, manual())) {
      db.put(b("r"), b("a"), b("1"));
      db.put(b("r"), b("b"), b("2"));
      db.put(b("k"), b("kv"));
      db.compact();
      try (Snapshot s = db.snapshot()) {
        db.deleteRow(b("r"));
        db.delete(b("k"));
        db.compact(); // bottom level: tombstones would go, and with them the cells they hide
        assertNull(db.get(b("r"), b("a")));
        assertTrue(db.getRow(b("r")).isEmpty());
        assertArrayEquals(b("1"), db.get(s, b("r"), b("a")));
        assertEquals(2, db.getRow(s, b("r")).size());
        assertArrayEquals(b("kv"), db.get(s, b("k"), EMPTY));
        assertEquals(List.of("k/=kv", "r/a=1", "r/b=2"), scan(db, s));
      }
      db.compact(); // no snapshot left: the tombstones and what they hid go
      assertEquals(List.of(), scan(db, null));
    }
  }

  @Test
  void snapshotTakenBeforeAWrite_doesNotSeeIt() throws IOException {
    try (Db db = Db.open(dir, manual())) {
      try (Snapshot s = db.snapshot()) {
        db.put(b("r"), b("c"), b("v"));
        assertNull(db.get(s, b("r"), b("c")));
        assertTrue(db.getRow(s, b("r")).isEmpty());
        assertEquals(List.of(), scan(db, s));
        assertEquals(List.of("r/c=v"), scan(db, null));
      }
    }
  }

  @Test
  void manySnapshots_eachSeeTheirOwnVersion_afterCompaction() throws IOException {
    try (Db db = Db.open(dir, manual())) {
      List<Snapshot> held = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        db.put(b("r"), b("c"), b("v" + i));
        held.add(db.snapshot());
        db.put(b("other" + i), b("c"), b("x"));
        db.flush();
      }
      db.compact();
      for (int i = 0; i < 5; i++) {
        assertArrayEquals(b("v" + i), db.get(held.get(i), b("r"), b("c")));
      }
      held.get(2).close();
      db.compact();
      for (int i : new int[] {0, 1, 3, 4}) {
        assertArrayEquals(b("v" + i), db.get(held.get(i), b("r"), b("c")));
      }
      held.forEach(Snapshot::close);
    }
  }

  @Test
  void stats_countLiveSnapshots_andTheOldestAge() throws Exception {
    try (Db db = Db.open(dir, manual())) {
      assertEquals(0, db.stats().snapshots().live());
      assertEquals(0, db.stats().snapshots().oldestAgeMillis());
      Snapshot a = db.snapshot();
      Thread.sleep(20);
      Snapshot b = db.snapshot();
      assertEquals(2, db.stats().snapshots().live());
      assertTrue(db.stats().snapshots().oldestAgeMillis() >= 20, () -> "age " + db.stats());
      a.close();
      a.close(); // idempotent
      assertEquals(1, db.stats().snapshots().live());
      assertTrue(db.stats().snapshots().oldestAgeMillis() < 20_000);
      b.close();
      assertEquals(0, db.stats().snapshots().live());
    }
  }

  @Test
  void sequence_isTheLastWriteSeen() throws IOException {
    try (Db db = Db.open(dir, manual())) {
      long before;
      try (Snapshot s = db.snapshot()) {
        before = s.sequence();
      }
      db.put(b("r"), b("c"), b("v"));
      try (Snapshot s = db.snapshot()) {
        assertEquals(before + 1, s.sequence());
      }
    }
  }

  @Test
  void closedSnapshot_throwsIllegalState() throws IOException {
    try (Db db = Db.open(dir, manual())) {
      Snapshot s = db.snapshot();
      s.close();
      assertThrows(IllegalStateException.class, () -> db.get(s, b("r"), b("c")));
      assertThrows(IllegalStateException.class, () -> db.getRow(s, b("r")));
      assertThrows(IllegalStateException.class, () -> db.scan(s, null, null));
    }
  }

  @Test
  void closingTheDatabase_invalidatesItsSnapshots() throws IOException {
    Db db = Db.open(dir, manual());
    Snapshot s = db.snapshot();
    db.close();
    assertThrows(IllegalStateException.class, () -> db.get(s, b("r"), b("c")));
    assertThrows(IllegalStateException.class, db::snapshot);
    assertDoesNotThrow(s::close);
    try (Db again = Db.open(dir, manual())) {
      // a snapshot of the closed instance is used after its database closed, on any database
      assertThrows(IllegalStateException.class, () -> again.get(s, b("r"), b("c")));
    }
  }

  /** Every read that takes a snapshot, for each misuse: after close (ISE), of another database (IAE). */
  @Test
  void snapshotMisuse_acrossCloseAndReopen_everyRead(@TempDir Path other) throws IOException {
    Db first = Db.open(dir, manual());
    first.put(b("r"), b("c"), b("v"));
    Snapshot ofClosedDb = first.snapshot();
    Snapshot closedOnOpenDb;
    first.close();
    try (Db reopened = Db.open(dir, manual());
        Db another = Db.open(other, manual())) {
      closedOnOpenDb = reopened.snapshot();
      closedOnOpenDb.close();
      for (Db target : List.of(reopened, another)) {
        assertAllReadsThrow(IllegalStateException.class, target, ofClosedDb);
        assertAllReadsThrow(IllegalStateException.class, target, closedOnOpenDb);
      }
      try (Snapshot live = another.snapshot()) {
        assertAllReadsThrow(IllegalArgumentException.class, reopened, live);
        assertNull(another.get(live, b("r"), b("c")));
      }
      try (Snapshot live = reopened.snapshot()) {
        assertArrayEquals(b("v"), reopened.get(live, b("r"), b("c")));
      }
    }
  }

  private static void assertAllReadsThrow(Class<? extends RuntimeException> type, Db db, Snapshot s) {
    assertThrows(type, () -> db.get(s, b("r"), b("c")), "get");
    assertThrows(type, () -> db.getRow(s, b("r")), "getRow");
    assertThrows(type, () -> db.scan(s, null, null), "scan");
    assertThrows(type, () -> db.cursor(s), "cursor");
  }

  @Test
  void nullSnapshot_throwsNullPointerNamingIt() throws IOException {
    try (Db db = Db.open(dir, manual())) {
      NullPointerException e =
          assertThrows(NullPointerException.class, () -> db.get(null, b("r"), b("c")));
      assertTrue(e.getMessage().contains("snapshot"), e.getMessage());
      assertThrows(NullPointerException.class, () -> db.getRow((Snapshot) null, b("r")));
      assertThrows(NullPointerException.class, () -> db.scan((Snapshot) null, null, null));
    }
  }

  private static List<String> scan(Db db, Snapshot s) throws IOException {
    List<String> out = new ArrayList<>();
    try (CellScanner c = s == null ? db.scan(null, null) : db.scan(s, null, null)) {
      c.forEachRemaining(
          cell ->
              out.add(
                  new String(cell.row(), UTF_8)
                      + "/"
                      + new String(cell.column(), UTF_8)
                      + "="
                      + new String(cell.value(), UTF_8)));
    }
    return out;
  }
}
