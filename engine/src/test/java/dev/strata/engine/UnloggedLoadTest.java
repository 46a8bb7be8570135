package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writes through a bulk load skip the log ({@link BulkLoad#write}); a killed process (its files as
 * they were, {@link CrashCopy}) must leave them as a prefix with the marker written in the same
 * batch, and all of them once the load is closed or a logged write followed them.
 */
final class UnloggedLoadTest {
  private static final byte[] MARKER = b("offset");

  @TempDir Path root;

  private static DbOptions options() {
    return DbOptions.builder().memtableBytes(16 << 10).build();
  }

  @Test
  void unloggedWrites_skipTheLog_andAreReadAtOnce() throws IOException {
    try (Db db = Db.open(root.resolve("db"), options()); BulkLoad load = db.bulkLoad(8)) {
      long logWrites = db.writeStats().logWrites();
      load.write(batch(0));
      assertEquals(logWrites, db.writeStats().logWrites());
      assertArrayEquals(value(0, 0), db.get(key(0, 0), b("")));
      assertArrayEquals(b("0"), db.commitMarkers().get(MARKER));
    }
  }

  @Test
  void killedWithTheLoadOpen_keepsAPrefixWithItsMarker() throws IOException {
    Path live = root.resolve("live");
    int written = 2000; // many memtables of 16 KiB: some flushed, the newest not
    try (Db db = Db.open(live, options())) {
      db.write(batch(0)); // logged, before the load
      BulkLoad load = db.bulkLoad(8);
      for (int w = 1; w < written; w++) {
        load.write(batch(w));
      }
      Path crashed = CrashCopy.copy(live, root.resolve("crashed"));
      try (Db after = Db.open(crashed, options())) {
        int kept = checkPrefix(after, written);
        assertTrue(kept >= 1, "the logged batch before the load is kept");
        assertTrue(kept < written, "the unflushed memtable's batches are gone: kept " + kept);
      }
      load.close();
    }
  }

  @Test
  void killedAfterTheLoadCloses_keepsEveryBatch() throws IOException {
    Path live = root.resolve("live");
    try (Db db = Db.open(live, options())) {
      try (BulkLoad load = db.bulkLoad(8)) {
        for (int w = 0; w < 500; w++) {
          load.write(batch(w));
        }
      }
      try (Db after = Db.open(CrashCopy.copy(live, root.resolve("crashed")), options())) {
        assertEquals(500, checkPrefix(after, 500));
      }
    }
  }

  @Test
  void aLoggedWriteAfterUnloggedOnes_waitsForTheirFlush() throws IOException {
    Path live = root.resolve("live");
    try (Db db = Db.open(live, options()); BulkLoad load = db.bulkLoad(8)) {
      for (int w = 0; w < 300; w++) {
        load.write(batch(w));
      }
      db.write(batch(300)); // logged: may be replayed, so everything before it is flushed first
      for (int w = 301; w < 310; w++) {
        load.write(batch(w)); // unlogged again: lost in the kill, after the logged one
      }
      try (Db after = Db.open(CrashCopy.copy(live, root.resolve("crashed")), options())) {
        assertEquals(301, checkPrefix(after, 310));
      }
    }
  }

  @Test
  void closingTheDatabaseFirst_dropsTheUnflushedWritesAsACrashWould() throws IOException {
    Path dir = root.resolve("db");
    BulkLoad load;
    try (Db db = Db.open(dir, options())) {
      db.write(batch(0));
      load = db.bulkLoad(8);
      load.write(batch(1));
    }
    load.close(); // harmless after the database closed
    try (Db db = Db.open(dir, options())) {
      assertEquals(1, checkPrefix(db, 2));
    }
  }

  @Test
  void markersAlone_areLogged() throws IOException {
    Path live = root.resolve("live");
    try (Db db = Db.open(live, options()); BulkLoad load = db.bulkLoad(8)) {
      load.write(new WriteBatch().putCommitMarker(MARKER, b("7")));
      try (Db after = Db.open(CrashCopy.copy(live, root.resolve("crashed")), options())) {
        assertArrayEquals(b("7"), after.commitMarkers().get(MARKER));
      }
    }
  }

  @Test
  void aClosedLoad_takesNoWrite() throws IOException {
    try (Db db = Db.open(root.resolve("db"), options())) {
      BulkLoad load = db.bulkLoad(8);
      load.close();
      assertThrows(IllegalStateException.class, () -> load.write(batch(0)));
    }
  }

  /**
   * The batches present of the {@code written}: a prefix of whole batches, the marker naming its
   * last (absent when none is kept); returns its length.
   */
  private static int checkPrefix(Db db, int written) throws IOException {
    int kept = 0;
    for (int w = 0; w < written; w++) {
      byte[] first = db.get(key(w, 0), b(""));
      byte[] second = db.get(key(w, 1), b(""));
      assertEquals(first == null, second == null, "batch " + w + " half there");
      if (first == null) {
        break;
      }
      assertArrayEquals(value(w, 0), first);
      kept = w + 1;
    }
    for (int w = kept; w < written; w++) {
      assertNull(db.get(key(w, 0), b("")), "batch " + w + " survived after a lost one");
    }
    byte[] marker = db.commitMarkers().get(MARKER);
    if (kept == 0) {
      assertNull(marker);
    } else {
      assertArrayEquals(b(Integer.toString(kept - 1)), marker, "marker of a prefix of " + kept);
    }
    return kept;
  }

  private static WriteBatch batch(int w) {
    return new WriteBatch()
        .put(key(w, 0), b(""), value(w, 0))
        .put(key(w, 1), b(""), value(w, 1))
        .putCommitMarker(MARKER, b(Integer.toString(w)));
  }

  private static byte[] key(int w, int j) {
    return b(String.format("k%06d-%d", w, j));
  }

  private static byte[] value(int w, int j) {
    return b("v" + w + "/" + j + "/" + "x".repeat(20));
  }

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
