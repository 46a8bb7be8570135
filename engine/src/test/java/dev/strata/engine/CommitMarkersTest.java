package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.checksum.Checksums;
import dev.strata.engine.fs.FaultyFileLayer;
import dev.strata.engine.fs.FileNames;
import dev.strata.engine.fs.FileNames.DbFile;
import dev.strata.engine.fs.FileNames.FileType;
import dev.strata.engine.log.LogFormat;
import dev.strata.engine.manifest.Manifest;
import dev.strata.engine.manifest.ManifestReader;
import dev.strata.engine.write.Limits;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import java.util.SortedMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Commit markers: applied with their batch, outside the key space, durable as their data is. */
final class CommitMarkersTest {

  private static final byte[] E = new byte[0];

  @TempDir Path dir;

  /**
   * A flush after batches of markers alone, into a memtable with no entry (just flushed): the flush
   * freezes nothing, yet it vouches for those batches, so a power loss that takes every byte not
   * forced (here: everything unforced is cut, and every name never forced is gone) keeps them.
   */
  @Test
  void flushAfterMarkersOnlyBatches_makesThemDurable() throws IOException {
    FaultyFileLayer files = new FaultyFileLayer();
    DbOptions options = DbOptions.builder().syncWrites(false).build();
    Db db = Db.open(dir, options, EngineHooks.NONE.withFileLayer(files));
    try {
      db.write(new WriteBatch().put(b("k"), E, b("v")).putCommitMarker(b("offset"), b("1")));
      db.flush();
      db.write(new WriteBatch().putCommitMarker(b("offset"), b("2")));
      db.write(new WriteBatch().putCommitMarker(b("other"), b("x")));
      db.flush();
      files.powerLoss(new Random() {
        @Override
        protected int next(int bits) {
          return 0; // the harshest loss: unforced bytes cut (NOTHING), unforced names gone
        }
      });
    } finally {
      try {
        db.close();
      } catch (IOException | IllegalStateException expected) {
        // the power is gone: the close cannot write
      }
    }
    try (Db reopened = Db.open(dir, options)) {
      assertArrayEquals(b("2"), reopened.commitMarker(b("offset")), "a flushed marker was lost");
      assertArrayEquals(b("x"), reopened.commitMarker(b("other")), "a flushed marker was lost");
      assertArrayEquals(b("v"), reopened.get(b("k")));
    }
  }

  @Test
  void markersRoundTripThroughReopen_markerOnlyBatchesIncluded_andStayOutOfTheKeySpace()
      throws IOException {
    try (Db db = Db.open(dir)) {
      db.write(new WriteBatch().put(b("k"), E, b("v")).putCommitMarker(b("offset"), b("1")));
      db.write(new WriteBatch().putCommitMarker(b("other"), b("x"))); // markers only
      db.write(new WriteBatch().putCommitMarker(b("offset"), b("2")).deleteCommitMarker(b("gone")));
      assertArrayEquals(b("2"), db.commitMarker(b("offset")));
      try (CellScanner cells = db.scan(null, null)) {
        assertEquals("k", new String(cells.next().row(), StandardCharsets.UTF_8));
        assertTrue(!cells.hasNext(), "markers are not cells");
      }
    }
    try (Db db = Db.open(dir)) {
      SortedMap<byte[], byte[]> markers = db.commitMarkers();
      assertEquals(2, markers.size());
      assertArrayEquals(b("2"), markers.get(b("offset")));
      assertArrayEquals(b("x"), markers.get(b("other")));
      assertNull(db.commitMarker(b("gone")));
      assertArrayEquals(b("v"), db.get(b("k")));
      db.write(new WriteBatch().deleteCommitMarker(b("other")));
    }
    try (Db db = Db.open(dir)) {
      assertNull(db.commitMarker(b("other")), "a removal is durable too");
      assertEquals(1, db.commitMarkers().size());
    }
  }

  @Test
  void markersSurviveAFlushThatDeletesTheirLogs_recordedInTheManifest() throws IOException {
    long logBefore;
    try (Db db = Db.open(dir)) {
      db.write(new WriteBatch().put(b("k"), E, b("v")).putCommitMarker(b("offset"), b("7")));
      logBefore = newestLog();
      db.flush();
      assertTrue(newestLog() > logBefore, "the flush moved to a new log");
      assertTrue(!FileNames.log(dir, logBefore).toFile().exists(), "the marker's log is gone");
      Manifest m = ManifestReader.read(FileNames.manifest(dir));
      assertArrayEquals(b("7"), m.markers().get(b("offset")));
    }
    try (Db db = Db.open(dir)) {
      assertArrayEquals(b("7"), db.commitMarker(b("offset")));
    }
  }

  @Test
  void markersSurviveAWholeManifestRewrite() throws IOException {
    try (Db db = Db.open(dir)) {
      db.write(new WriteBatch().put(b("a"), E, b("1")).putCommitMarker(b("offset"), b("1")));
      db.flush();
    }
    try (Db db = Db.open(dir)) {
      // The first manifest write after an open is a whole rewrite: one snapshot, which must carry
      // the markers, since the logs that held them are gone.
      db.put(b("b"), b("2"));
      db.flush();
    }
    try (Db db = Db.open(dir)) {
      assertArrayEquals(b("1"), db.commitMarker(b("offset")));
      assertArrayEquals(b("2"), db.get(b("b")));
    }
  }

  @Test
  void aFlushRecordsTheMarkersOfItsMemtable_neverThoseOfLaterWrites() throws Exception {
    try (Db db = Db.open(dir)) {
      db.write(new WriteBatch().put(b("k"), E, b("1")).putCommitMarker(b("offset"), b("1")));
      AtomicBoolean once = new AtomicBoolean();
      db.seams()
          .beforeEachFlush(
              () -> {
                if (once.compareAndSet(false, true)) {
                  try { // a write after the freeze, while the frozen memtable is being flushed
                    db.write(
                        new WriteBatch().put(b("k"), E, b("2")).putCommitMarker(b("offset"), b("2")));
                  } catch (IOException e) {
                    throw new AssertionError(e);
                  }
                }
              });
      db.flush();
      Manifest m = ManifestReader.read(FileNames.manifest(dir));
      assertArrayEquals(b("1"), m.markers().get(b("offset")), "the flushed memtable's marker");
      assertArrayEquals(b("2"), db.commitMarker(b("offset")), "the latest in memory");
    }
    try (Db db = Db.open(dir)) {
      assertArrayEquals(b("2"), db.commitMarker(b("offset")), "the later one from its log");
      assertArrayEquals(b("2"), db.get(b("k")));
    }
  }

  @Test
  void aLogOfVersion1StillReads_andIsNeverAppendedTo() throws IOException {
    try (Db db = Db.open(dir)) {
      db.put(b("old"), b("1"));
    }
    long log = newestLog();
    rewriteLogVersion(FileNames.log(dir, log), 1);
    try (Db db = Db.open(dir)) {
      assertArrayEquals(b("1"), db.get(b("old")));
      assertTrue(newestLog() > log, "a new log, not an append to the version-1 one");
      db.write(new WriteBatch().put(b("new"), E, b("2")).putCommitMarker(b("offset"), b("9")));
    }
    try (Db db = Db.open(dir)) {
      assertArrayEquals(b("1"), db.get(b("old")));
      assertArrayEquals(b("2"), db.get(b("new")));
      assertArrayEquals(b("9"), db.commitMarker(b("offset")));
    }
  }

  @Test
  void limits_areIllegalArgumentsNamingThem_andNullsNpesNamingTheArgument() throws IOException {
    WriteBatch batch = new WriteBatch();
    assertMessage("name", assertThrows(NullPointerException.class,
        () -> batch.putCommitMarker(null, b("v"))));
    assertMessage("value", assertThrows(NullPointerException.class,
        () -> batch.putCommitMarker(b("n"), null)));
    assertMessage("name", assertThrows(NullPointerException.class,
        () -> batch.deleteCommitMarker(null)));
    assertMessage("MAX_COMMIT_MARKER_NAME_LENGTH", assertThrows(IllegalArgumentException.class,
        () -> batch.putCommitMarker(new byte[0], b("v"))));
    assertMessage("MAX_COMMIT_MARKER_NAME_LENGTH", assertThrows(IllegalArgumentException.class,
        () -> batch.deleteCommitMarker(new byte[Limits.MAX_COMMIT_MARKER_NAME_LENGTH + 1])));
    assertMessage("MAX_COMMIT_MARKER_VALUE_LENGTH", assertThrows(IllegalArgumentException.class,
        () -> batch.putCommitMarker(b("n"), new byte[Limits.MAX_COMMIT_MARKER_VALUE_LENGTH + 1])));
    batch.putCommitMarker(new byte[Limits.MAX_COMMIT_MARKER_NAME_LENGTH],
        new byte[Limits.MAX_COMMIT_MARKER_VALUE_LENGTH]);
    for (int i = 1; i < Limits.MAX_COMMIT_MARKERS_PER_BATCH; i++) {
      batch.putCommitMarker(b("n" + i), b("v"));
    }
    assertEquals(Limits.MAX_COMMIT_MARKERS_PER_BATCH, batch.commitMarkerCount());
    assertMessage("MAX_COMMIT_MARKERS_PER_BATCH", assertThrows(IllegalArgumentException.class,
        () -> batch.putCommitMarker(b("one more"), b("v"))));
    assertEquals(Limits.MAX_COMMIT_MARKERS_PER_BATCH, batch.commitMarkerCount(), "unchanged");
    try (Db db = Db.open(dir)) {
      assertMessage("name", assertThrows(NullPointerException.class, () -> db.commitMarker(null)));
      int written = 0;
      while (written + Limits.MAX_COMMIT_MARKERS_PER_BATCH <= Limits.MAX_COMMIT_MARKERS) {
        WriteBatch full = new WriteBatch();
        for (int i = 0; i < Limits.MAX_COMMIT_MARKERS_PER_BATCH; i++) {
          full.putCommitMarker(b("m" + written++), b("v"));
        }
        db.write(full);
      }
      assertEquals(Limits.MAX_COMMIT_MARKERS, db.commitMarkers().size());
      WriteBatch over = new WriteBatch().put(b("k"), E, b("v")).putCommitMarker(b("new"), b("v"));
      assertMessage("MAX_COMMIT_MARKERS", assertThrows(IllegalArgumentException.class,
          () -> db.write(over)));
      assertNull(db.get(b("k")), "a refused batch writes nothing");
      // Replacing or removing a marker adds no name: still allowed at the limit.
      db.write(new WriteBatch().putCommitMarker(b("m0"), b("w")).deleteCommitMarker(b("m1")));
      db.write(new WriteBatch().putCommitMarker(b("new"), b("v")));
      assertEquals(Limits.MAX_COMMIT_MARKERS, db.commitMarkers().size());
    }
    try (Db db = Db.open(dir)) {
      assertEquals(Limits.MAX_COMMIT_MARKERS, db.commitMarkers().size());
      assertArrayEquals(b("w"), db.commitMarker(b("m0")));
    }
  }

  /** Sets the version in the header of {@code log} and the header's crc to match. */
  private static void rewriteLogVersion(Path log, int version) throws IOException {
    try (FileChannel ch = FileChannel.open(log, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer header =
          ByteBuffer.allocate(LogFormat.FILE_HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
      ch.read(header, 0);
      header.putInt(8, version);
      header.putInt(
          LogFormat.FILE_HEADER_CRC_OFFSET,
          Checksums.maskedCrc32c(header.array(), 0, LogFormat.FILE_HEADER_CRC_OFFSET));
      ch.write(header.flip(), 0);
    }
  }

  private long newestLog() throws IOException {
    long newest = -1;
    for (DbFile f : FileNames.list(dir)) {
      if (f.is(FileType.LOG)) {
        newest = Math.max(newest, f.number());
      }
    }
    return newest;
  }

  private static void assertMessage(String expected, Throwable t) {
    assertTrue(t.getMessage().contains(expected), t.getMessage());
  }

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

}
