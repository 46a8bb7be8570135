package dev.strata.engine.manifest;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.engine.CorruptionException;
import dev.strata.engine.fs.FileNames;
import dev.strata.engine.write.MarkerSet;
import dev.strata.engine.write.MarkerUpdate;
import dev.strata.sstable.filter.FilterKind;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.ValueKind;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The manifest as a log of edits: appends read back as the state they make, a torn last record (cut
 * short, or bytes that never arrived) is dropped and any whole record failing its crc is
 * corruption, the log is rewritten whole once it grows, a failed write says whether it may have
 * reached the disk, and the golden files of every version still read as the states they were
 * written for.
 */
final class ManifestLogTest {
  @TempDir Path dir;

  private static InternalKey key(String row, String column, long sequence, ValueKind kind) {
    return new InternalKey(
        row.getBytes(StandardCharsets.UTF_8), column.getBytes(StandardCharsets.UTF_8), sequence, kind);
  }

  private static FileMetadata table(
      long number, int level, long size, long entries, long minSeq, long maxSeq, InternalKey smallest,
      InternalKey largest, long filterBytes) {
    return new FileMetadata(
        number, level, size, entries, minSeq, maxSeq, smallest, largest, filterBytes);
  }

  // ---------------------------------------------------------------- golden files

  /** The state of golden/manifest-v1 (written by the version-1 encoder, filter sizes unknown). */
  static Manifest goldenV1State() {
    long u = FileMetadata.UNKNOWN_FILTER_BYTES;
    return new Manifest(
        20,
        500,
        18,
        List.of(
            table(17, 0, 4096, 100, 401, 500, key("apple", "", 450, ValueKind.PUT),
                key("melon", "c", 401, ValueKind.DELETE), u),
            table(12, 1, 8192, 200, 1, 300, key("a", "x", 12, ValueKind.PUT),
                key("k", "", 300, ValueKind.DELETE_ROW), u),
            table(14, 1, 8000, 150, 5, 310, key("m", "", 7, ValueKind.PUT),
                key("z", "zz", 5, ValueKind.PUT), u),
            table(9, 2, 65536, 1000, 1, 100, key("b", "", 3, ValueKind.DELETE),
                key("y", "", 100, ValueKind.PUT), u)));
  }

  /** The snapshot of golden/manifest-v2: golden v1's state with every filter size known. */
  static Manifest goldenV2Snapshot() {
    List<FileMetadata> files = new ArrayList<>();
    for (FileMetadata f : goldenV1State().files()) {
      files.add(f.withFilterBytes(f.fileNumber() * 10));
    }
    return new Manifest(20, 500, 18, files);
  }

  /** The edits of golden/manifest-v2: a flush, a compaction of level 0, a trivial move. */
  static List<ManifestEdit> goldenV2Edits() {
    FileMetadata flushed =
        table(21, 0, 3000, 90, 501, 590, key("c", "", 590, ValueKind.PUT),
            key("d", "", 501, ValueKind.PUT), 64);
    FileMetadata compacted =
        table(22, 1, 9000, 250, 1, 590, key("a", "x", 12, ValueKind.PUT),
            key("z", "zz", 5, ValueKind.PUT), 96);
    FileMetadata moved = goldenV2Snapshot().filesAt(2).get(0).atLevel(3);
    return List.of(
        new ManifestEdit(22, 590, 21, List.of(), List.of(flushed)),
        new ManifestEdit(23, 590, 21, List.of(17L, 21L, 12L, 14L), List.of(compacted)),
        new ManifestEdit(23, 600, 21, List.of(9L), List.of(moved)));
  }

  /** The snapshot of golden/manifest-v3: golden v2's, with its newest log recorded as forced. */
  static Manifest goldenV3Snapshot() {
    Manifest v2 = goldenV2Snapshot();
    return new Manifest(
        v2.nextFileNumber(), v2.lastSequence(), v2.logNumber(), v2.files(),
        List.of(new SyncedLog(18, 4_000), new SyncedLog(19, 24)));
  }

  /** The edits of golden/manifest-v3: golden v2's, then a clean close recording a forced log. */
  static List<ManifestEdit> goldenV3Edits() {
    List<ManifestEdit> edits = new ArrayList<>(goldenV2Edits());
    edits.add(
        new ManifestEdit(23, 610, 21, List.of(), List.of(), List.of(new SyncedLog(21, 1_234))));
    return edits;
  }

  /**
   * The edits of golden/manifest-v4: golden v2's, a flush of a table that records its filter's kind
   * and bits per key, then a clean close recording a forced log. Its snapshot is version 3's.
   */
  static List<ManifestEdit> goldenV4Edits() {
    List<ManifestEdit> edits = new ArrayList<>(goldenV2Edits());
    FileMetadata withFilter =
        new FileMetadata(23, 0, 2000, 40, 591, 600, key("e", "", 600, ValueKind.PUT),
            key("f", "g", 591, ValueKind.PUT), 80, FilterKind.BLOOM, 12.5);
    edits.add(new ManifestEdit(24, 600, 21, List.of(), List.of(withFilter)));
    edits.add(
        new ManifestEdit(24, 610, 21, List.of(), List.of(), List.of(new SyncedLog(21, 1_234))));
    return edits;
  }

  /** The snapshot of golden/manifest-v5: golden v3's, with two commit markers. */
  static Manifest goldenV5Snapshot() {
    Manifest v3 = goldenV3Snapshot();
    MarkerSet markers =
        MarkerSet.EMPTY.apply(
            List.of(new MarkerUpdate(bytes("offset/a"), bytes("17")),
                new MarkerUpdate(bytes("offset/b"), new byte[0])));
    return new Manifest(v3.nextFileNumber(), v3.lastSequence(), v3.logNumber(), v3.files(),
        v3.syncedLogs(), markers);
  }

  /**
   * The edits of golden/manifest-v5: golden v4's, then a flush that sets one commit marker and
   * removes another, then a clean close.
   */
  static List<ManifestEdit> goldenV5Edits() {
    List<ManifestEdit> edits = new ArrayList<>(goldenV4Edits());
    FileMetadata flushed =
        new FileMetadata(24, 0, 1000, 10, 601, 601, key("h", "", 601, ValueKind.PUT),
            key("i", "", 601, ValueKind.PUT), 40, FilterKind.BLOOM, 10);
    edits.add(new ManifestEdit(25, 610, 21, List.of(), List.of(flushed), List.of(),
        List.of(new MarkerUpdate(bytes("offset/a"), bytes("42")),
            MarkerUpdate.remove(bytes("offset/b")))));
    edits.add(
        new ManifestEdit(25, 610, 21, List.of(), List.of(), List.of(new SyncedLog(21, 2_345))));
    return edits;
  }

  private static byte[] bytes(String s) {
    return s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }

  /** The state a golden file holds: its snapshot with its edits applied in order. */
  private static Manifest applied(Manifest snapshot, List<ManifestEdit> edits) {
    Manifest state = snapshot;
    for (ManifestEdit e : edits) {
      state = state.apply(e);
    }
    return state;
  }

  private static byte[] golden(String name) throws IOException {
    try (InputStream in =
        ManifestLogTest.class.getResourceAsStream("/dev/strata/engine/manifest/golden/" + name)) {
      if (in == null) {
        throw new IOException("missing golden file " + name);
      }
      return in.readAllBytes();
    }
  }

  @Test
  void goldenVersion1_stillReads() throws IOException {
    Path file = FileNames.manifest(dir);
    Files.write(file, golden("manifest-v1"));
    assertEquals(goldenV1State(), ManifestReader.read(file));
  }

  @Test
  void goldenVersion2_readsAsItsSnapshotWithTheEditsApplied() throws IOException {
    Manifest expected = applied(goldenV2Snapshot(), goldenV2Edits());
    Path file = FileNames.manifest(dir);
    byte[] bytes = golden("manifest-v2");
    Files.write(file, bytes);
    assertEquals(expected, ManifestReader.read(file));
    assertEquals(List.of(22L), expected.filesAt(1).stream().map(FileMetadata::fileNumber).toList());
    assertEquals(3, expected.files().stream().filter(f -> f.fileNumber() == 9).findFirst().orElseThrow().level());
    assertEquals(List.of(), expected.syncedLogs());
  }

  @Test
  void goldenVersion3_readsAsItsSnapshotWithTheEditsApplied_filtersNotRecorded() throws IOException {
    Manifest expected = applied(goldenV3Snapshot(), goldenV3Edits());
    Path file = FileNames.manifest(dir);
    Files.write(file, golden("manifest-v3"));
    Manifest read = ManifestReader.read(file);
    assertEquals(expected, read);
    assertEquals(List.of(new SyncedLog(21, 1_234)), read.syncedLogs());
    assertTrue(read.files().stream().allMatch(f -> f.filterKind() == null), "not recorded in v3");
  }

  @Test
  void goldenVersion4_readsAsItsSnapshotWithTheEditsApplied_noMarkers() throws IOException {
    Manifest expected = applied(goldenV3Snapshot(), goldenV4Edits());
    Path file = FileNames.manifest(dir);
    Files.write(file, golden("manifest-v4"));
    Manifest read = ManifestReader.read(file);
    assertEquals(expected, read);
    // The edits moved the oldest needed log to 21: logs 18 and 19 are forgotten, 21 recorded.
    assertEquals(List.of(new SyncedLog(21, 1_234)), expected.syncedLogs());
    assertTrue(read.markers().isEmpty(), "no commit marker before version 5");
  }

  @Test
  void goldenVersion5_readsAsItsSnapshotWithTheEditsApplied_andIsWhatThisReleaseWrites()
      throws IOException {
    Manifest expected = applied(goldenV5Snapshot(), goldenV5Edits());
    Path file = FileNames.manifest(dir);
    byte[] bytes = golden("manifest-v5");
    Files.write(file, bytes);
    Manifest read = ManifestReader.read(file);
    assertEquals(expected, read);
    assertArrayEquals(bytes("42"), read.markers().get(bytes("offset/a")));
    assertEquals(null, read.markers().get(bytes("offset/b")), "removed by the flush");
    assertEquals(1, read.markers().size());

    ByteArrayBuilder out = new ByteArrayBuilder();
    out.add(ManifestFormat.encode(goldenV5Snapshot()));
    for (ManifestEdit e : goldenV5Edits()) {
      out.add(ManifestFormat.editRecord(e));
    }
    assertArrayEquals(bytes, out.bytes());
  }

  @Test
  void markersSurviveAWholeRewrite() throws IOException {
    Manifest state = applied(goldenV5Snapshot(), goldenV5Edits());
    try (ManifestLog log = new ManifestLog(dir)) {
      log.rewrite(state);
    }
    Manifest read = ManifestReader.read(FileNames.manifest(dir));
    assertEquals(state.markers(), read.markers());
    assertArrayEquals(bytes("42"), read.markers().get(bytes("offset/a")));
  }

  /** Concatenates byte arrays. */
  private static final class ByteArrayBuilder {
    private byte[] bytes = new byte[0];

    void add(byte[] more) {
      byte[] next = Arrays.copyOf(bytes, bytes.length + more.length);
      System.arraycopy(more, 0, next, bytes.length, more.length);
      bytes = next;
    }

    byte[] bytes() {
      return bytes;
    }
  }

  // ---------------------------------------------------------------- the log

  /** Writes golden v5's snapshot and edits through a log; returns the states after each. */
  private List<Manifest> writeGoldenHistory(ManifestLog log) throws IOException {
    List<Manifest> states = new ArrayList<>();
    Manifest state = goldenV5Snapshot();
    log.rewrite(state);
    states.add(state);
    for (ManifestEdit e : goldenV5Edits()) {
      state = state.apply(e);
      log.write(e, state);
      states.add(state);
    }
    return states;
  }

  @Test
  void appendedEditsReadBackAsTheirState_andMatchTheGoldenBytes() throws IOException {
    try (ManifestLog log = new ManifestLog(dir)) {
      List<Manifest> states = writeGoldenHistory(log);
      assertEquals(states.get(states.size() - 1), ManifestReader.read(FileNames.manifest(dir)));
      assertEquals(1, log.rewrites(), "edits are appended, not rewritten");
    }
    assertArrayEquals(golden("manifest-v5"), Files.readAllBytes(FileNames.manifest(dir)));
  }

  @Test
  void aTornLastRecordIsDropped_aWholeDamagedRecordIsCorruptionAnywhere() throws IOException {
    List<Manifest> states;
    try (ManifestLog log = new ManifestLog(dir)) {
      states = writeGoldenHistory(log);
    }
    Manifest beforeLast = states.get(states.size() - 2);
    List<ManifestEdit> edits = goldenV5Edits();
    Path file = FileNames.manifest(dir);
    byte[] whole = Files.readAllBytes(file);
    int lastRecord = whole.length - ManifestFormat.editRecord(edits.get(edits.size() - 1)).length;
    // Cut short by the end of the file: an append a crash interrupted.
    for (int cut = lastRecord + 1; cut < whole.length; cut++) {
      Files.write(file, Arrays.copyOf(whole, cut));
      assertEquals(beforeLast, ManifestReader.read(file), "cut at " + cut);
    }
    // The file grew but the last record's bytes never arrived: zeros.
    byte[] zeroed = whole.clone();
    Arrays.fill(zeroed, lastRecord, zeroed.length, (byte) 0);
    Files.write(file, zeroed);
    assertEquals(beforeLast, ManifestReader.read(file));
    // Only the header's first bytes arrived, zeros after them: its length fails its crc.
    for (int kept = 1; kept < 8; kept++) {
      byte[] headerThenZeros = whole.clone();
      Arrays.fill(headerThenZeros, lastRecord + kept, whole.length, (byte) 0);
      Files.write(file, headerThenZeros);
      assertEquals(beforeLast, ManifestReader.read(file), "header kept " + kept);
    }
    // The page of the last header never written back, the payload's page was: a zero header.
    byte[] zeroHeader = whole.clone();
    Arrays.fill(zeroHeader, lastRecord, lastRecord + ManifestFormat.RECORD_HEADER_BYTES, (byte) 0);
    Files.write(file, zeroHeader);
    assertEquals(beforeLast, ManifestReader.read(file));
    // A last record crossing a sector boundary whose sectors from the boundary on never arrived.
    FileMetadata wide =
        table(30, 0, 1, 1, 601, 601, key("w".repeat(300), "", 601, ValueKind.PUT),
            key("x".repeat(300), "", 601, ValueKind.PUT), 8);
    ManifestEdit wideEdit = new ManifestEdit(31, 601, 21, List.of(), List.of(wide));
    byte[] wideRecord = ManifestFormat.editRecord(wideEdit);
    byte[] withWide = Arrays.copyOf(whole, whole.length + wideRecord.length);
    System.arraycopy(wideRecord, 0, withWide, whole.length, wideRecord.length);
    Manifest afterWide = states.get(states.size() - 1).apply(wideEdit);
    Files.write(file, withWide);
    assertEquals(afterWide, ManifestReader.read(file));
    int boundary = (whole.length + ManifestFormat.RECORD_HEADER_BYTES + 511) / 512 * 512;
    assertTrue(boundary < withWide.length - 1, "the record crosses a sector boundary");
    byte[] lastSectorsLost = withWide.clone();
    Arrays.fill(lastSectorsLost, boundary, lastSectorsLost.length, (byte) 0);
    Files.write(file, lastSectorsLost);
    assertEquals(states.get(states.size() - 1), ManifestReader.read(file));
    // Zeros that start inside the last sector, or a hole with bytes after it, are not what a
    // device leaves: corruption.
    int lastSector = (withWide.length - 1) / 512 * 512;
    byte[] zerosInLastSector = withWide.clone();
    Arrays.fill(zerosInLastSector, Math.max(lastSector + 1, withWide.length - 40), withWide.length,
        (byte) 0);
    byte[] hole = withWide.clone();
    Arrays.fill(hole, boundary, boundary + 64, (byte) 0);
    for (byte[] damaged : List.of(zerosInLastSector, hole)) {
      Files.write(file, damaged);
      assertThrows(CorruptionException.class, () -> ManifestReader.read(file));
    }
    // A flipped byte anywhere, the last record included: a whole record failing its crc may be an
    // edit the engine acted on, so it is corruption, never a silently shorter history.
    for (int at = 0; at < whole.length; at++) {
      for (int xor : new int[] {0x01, 0x10, 0x80, 0xff}) {
        byte[] flipped = whole.clone();
        flipped[at] ^= (byte) xor;
        Files.write(file, flipped);
        assertThrows(
            CorruptionException.class, () -> ManifestReader.read(file), "flip at " + at + " ^" + xor);
      }
    }
    // A zero header with a whole record after it is damage, not a tail.
    int secondLast = lastRecord - ManifestFormat.editRecord(edits.get(edits.size() - 2)).length;
    byte[] holedEarlier = whole.clone();
    Arrays.fill(holedEarlier, secondLast, secondLast + ManifestFormat.RECORD_HEADER_BYTES, (byte) 0);
    Files.write(file, holedEarlier);
    assertThrows(CorruptionException.class, () -> ManifestReader.read(file));
  }

  /**
   * A last record one of whose whole sectors never reached the disk while a later one did (a
   * device writing an append's sectors out of order) is a torn tail; the same hole with a whole
   * record after it is damage.
   */
  @Test
  void aLastRecordMissingAWholeSector_isATornTail_unlessARecordFollows() throws IOException {
    List<Manifest> states;
    try (ManifestLog log = new ManifestLog(dir)) {
      states = writeGoldenHistory(log);
    }
    Path file = FileNames.manifest(dir);
    byte[] whole = Files.readAllBytes(file);
    FileMetadata wide =
        table(30, 0, 1, 1, 601, 601, key("w".repeat(1200), "", 601, ValueKind.PUT),
            key("x".repeat(1200), "", 601, ValueKind.PUT), 8);
    byte[] wideRecord = ManifestFormat.editRecord(new ManifestEdit(31, 601, 21, List.of(), List.of(wide)));
    int payload = whole.length + ManifestFormat.RECORD_HEADER_BYTES;
    int sector = (payload + 511) / 512 * 512;
    assertTrue(sector + 512 < whole.length + wideRecord.length, "a whole sector inside the record");
    ByteArrayBuilder torn = new ByteArrayBuilder();
    torn.add(whole);
    torn.add(wideRecord);
    byte[] holed = torn.bytes();
    Arrays.fill(holed, sector, sector + 512, (byte) 0);
    Files.write(file, holed);
    assertEquals(states.get(states.size() - 1), ManifestReader.read(file));

    ByteArrayBuilder followed = new ByteArrayBuilder();
    followed.add(holed);
    followed.add(
        ManifestFormat.editRecord(new ManifestEdit(32, 602, 21, List.of(), List.of())));
    Files.write(file, followed.bytes());
    assertThrows(CorruptionException.class, () -> ManifestReader.read(file));

    byte[] flipped = torn.bytes();
    flipped[sector + 100] ^= 0x40; // one byte, not a sector: corruption as before
    Files.write(file, flipped);
    assertThrows(CorruptionException.class, () -> ManifestReader.read(file));
  }

  /**
   * A last record whose header straddles a sector boundary, the sector from that boundary never
   * arrived and a later one did: a torn tail, whichever of the header's bytes the lost sector
   * begins at (its length and length crc, or only its payload crc). The device lost a whole sector
   * of an append as in the test above; the sector merely starts before the payload. The same hole
   * with a whole record after it is damage.
   */
  @Test
  void aLastRecordMissingASectorThatStartsInItsHeader_isATornTail_unlessARecordFollows()
      throws IOException {
    List<Manifest> states;
    try (ManifestLog log = new ManifestLog(dir)) {
      states = writeGoldenHistory(log);
    }
    Path file = FileNames.manifest(dir);
    byte[] whole = Files.readAllBytes(file);
    ManifestEdit filler =
        new ManifestEdit(25, 610, 21, List.of(), List.of(), List.of(new SyncedLog(21, 7)));
    byte[] fillerRecord = ManifestFormat.editRecord(filler);
    assertEquals(1, fillerRecord.length % 2, "an odd filler reaches every residue of a sector");
    Manifest filled = states.get(states.size() - 1).apply(filler);
    FileMetadata wide =
        table(30, 0, 1, 1, 611, 611, key("w".repeat(1200), "", 611, ValueKind.PUT),
            key("x".repeat(1200), "", 611, ValueKind.PUT), 8);
    byte[] wideRecord =
        ManifestFormat.editRecord(new ManifestEdit(31, 611, 21, List.of(), List.of(wide)));
    int sector = ManifestFormat.SECTOR_BYTES;
    for (int into = 1; into < ManifestFormat.RECORD_HEADER_BYTES; into++) {
      ByteArrayBuilder out = new ByteArrayBuilder();
      out.add(whole);
      int fillers = 0;
      while ((whole.length + fillers * fillerRecord.length + into) % sector != 0) {
        out.add(fillerRecord);
        fillers++;
      }
      int at = whole.length + fillers * fillerRecord.length;
      out.add(wideRecord);
      byte[] holed = out.bytes();
      int boundary = at + into;
      assertTrue(boundary + 2 * sector < holed.length, "bytes after the lost sector");
      Arrays.fill(holed, boundary, boundary + sector, (byte) 0);
      Files.write(file, holed);
      Manifest expected = fillers == 0 ? states.get(states.size() - 1) : filled;
      assertEquals(expected, ManifestReader.read(file), "sector lost from header byte " + into);

      ByteArrayBuilder followed = new ByteArrayBuilder();
      followed.add(holed);
      followed.add(fillerRecord);
      Files.write(file, followed.bytes());
      assertThrows(CorruptionException.class, () -> ManifestReader.read(file),
          "a whole record after the hole, lost from header byte " + into);
    }
  }

  /**
   * A damaged record followed by a whole one whose last bytes are zeros (a synced log of length 0
   * ends a record with fifteen) is damage, not a torn tail, even when a sector boundary falls in
   * those zeros: the zeros are the whole record's, not sectors of the damaged one that never arrived.
   * (A regression: the tail rule once looked only at the file's last non-zero byte.)
   */
  @Test
  void aDamagedRecordFollowedByAWholeOneEndingInZeros_isCorruption() throws IOException {
    List<Manifest> states;
    try (ManifestLog log = new ManifestLog(dir)) {
      states = writeGoldenHistory(log);
    }
    Path file = FileNames.manifest(dir);
    byte[] whole = Files.readAllBytes(file);
    List<ManifestEdit> edits = goldenV5Edits();
    byte[] last = ManifestFormat.editRecord(edits.get(edits.size() - 1));
    byte[] damaged = last.clone();
    damaged[ManifestFormat.RECORD_HEADER_BYTES + 3] ^= 0x5A; // a whole record failing its crc
    byte[] zeroEnded =
        ManifestFormat.editRecord(
            new ManifestEdit(23, 610, 21, List.of(), List.of(), List.of(new SyncedLog(21, 0))));
    // The record's length is odd, so some count of them puts the file's end at every residue.
    for (int fillers = 0; fillers < ManifestFormat.SECTOR_BYTES; fillers++) {
      ByteArrayBuilder out = new ByteArrayBuilder();
      out.add(whole);
      for (int f = 0; f < fillers; f++) {
        out.add(zeroEnded); // whole records, each shifting the end's place in its sector
      }
      out.add(damaged);
      out.add(zeroEnded);
      byte[] bytes = out.bytes();
      int end = bytes.length % ManifestFormat.SECTOR_BYTES;
      if (end >= 1 && end <= 15) { // a sector boundary inside the final record's zeros
        Files.write(file, bytes);
        assertThrows(CorruptionException.class, () -> ManifestReader.read(file));
        return;
      }
    }
    throw new AssertionError("no filler count put a sector boundary in the final zeros");
  }

  @Test
  void theLogIsRewrittenWholeOnceItOutgrowsItsSnapshot() throws IOException {
    Manifest state = goldenV2Snapshot();
    try (ManifestLog log = new ManifestLog(dir)) {
      log.rewrite(state);
      long snapshot = log.size() + 200; // the snapshot may hold one added table more
      long number = 30;
      for (int i = 0; i < 2000; i++) {
        FileMetadata f =
            table(number, 5, 100, 1, 1, 1, key("t" + number, "", 1, ValueKind.PUT),
                key("t" + number, "", 1, ValueKind.PUT), 0);
        ManifestEdit add = new ManifestEdit(number + 1, 600, 21, List.of(), List.of(f));
        state = state.apply(add);
        log.write(add, state);
        ManifestEdit drop = new ManifestEdit(number + 1, 600, 21, List.of(number), List.of());
        state = state.apply(drop);
        log.write(drop, state);
        number++;
        assertTrue(
            log.size()
                <= ManifestLog.REWRITE_FACTOR * snapshot + ManifestLog.REWRITE_SLACK_BYTES + 200,
            "size " + log.size());
      }
      assertTrue(log.rewrites() > 1, "rewrites: " + log.rewrites());
    }
    assertEquals(state, ManifestReader.read(FileNames.manifest(dir)));
  }

  @Test
  void aRewriteThatFailsBeforeItsRenameLeavesTheOldStateAndSaysSo() throws IOException {
    Manifest first = goldenV2Snapshot();
    ManifestEdit edit = goldenV2Edits().get(0);
    Manifest second = first.apply(edit);
    try (ManifestLog log = new ManifestLog(dir)) {
      log.rewrite(first);
      Files.createDirectory(FileNames.manifestTemp(dir)); // the temporary file cannot be written
      ManifestWriteException e =
          assertThrows(ManifestWriteException.class, () -> log.rewrite(second));
      assertFalse(e.mayBeDurable());
      assertFalse(ManifestWriteException.mayHaveReachedDisk(e));
      assertEquals(first, ManifestReader.read(FileNames.manifest(dir)));

      Files.deleteIfExists(FileNames.manifestTemp(dir));
      log.write(edit, second); // after a failure the next write is a whole rewrite
      assertEquals(2, log.rewrites());
      assertEquals(second, ManifestReader.read(FileNames.manifest(dir)));
    }
  }

  @Test
  void anEditThatDoesNotApplyIsCorruption() throws IOException {
    Manifest first = goldenV2Snapshot();
    try (ManifestLog log = new ManifestLog(dir)) {
      log.rewrite(first);
    }
    // Appended by hand: it deletes a table the state does not list.
    byte[] bad = ManifestFormat.editRecord(new ManifestEdit(20, 500, 18, List.of(99L), List.of()));
    Path file = FileNames.manifest(dir);
    byte[] bytes = Files.readAllBytes(file);
    byte[] joined = Arrays.copyOf(bytes, bytes.length + bad.length);
    System.arraycopy(bad, 0, joined, bytes.length, bad.length);
    Files.write(file, joined);
    CorruptionException e = assertThrows(CorruptionException.class, () -> ManifestReader.read(file));
    assertTrue(e.getMessage().contains("does not apply"), e.getMessage());
  }
}
