package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.strata.engine.fs.FileLayer;
import dev.strata.engine.fs.FileNames;
import dev.strata.engine.log.LogFormat;
import dev.strata.engine.memtable.MemTable;
import dev.strata.engine.version.ObsoleteFiles;
import dev.strata.engine.version.TableCache;
import dev.strata.sstable.ReadCounters;
import dev.strata.sstable.cache.ClockBlockCache;
import dev.strata.sstable.testing.CorruptFiles;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Durability with real bytes: a child JVM killed with SIGKILL at random moments loses no
 * acknowledged write and never leaves half a batch; a torn last log record is dropped; any other
 * damage to a log, the manifest or a table is reported as {@link CorruptionException}, never
 * answered with wrong data.
 */
@Tag("slow")
final class CrashRecoveryTest {
  /** Kill-and-reopen cycles on one directory. */
  private static final int CYCLES = 14;

  @TempDir Path dir;
  @TempDir Path scratch;

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void sigkill_atRandomMoments_losesNoAcknowledgedWrite() throws Exception {
    long seed = System.nanoTime();
    Random r = new Random(seed);
    CellModel model = new CellModel();
    Path db = dir.resolve("db");
    long totalAcks = 0;
    for (int cycle = 0; cycle < CYCLES; cycle++) {
      long runSeed = r.nextLong();
      // Cycle kinds: killed while opening (recovering), after a few writes, after many.
      int kind = cycle % 3;
      long acksWanted = kind == 0 ? -1 : kind == 1 ? 1 + r.nextInt(200) : 200 + r.nextInt(3000);
      long delayMillis = r.nextInt(kind == 0 ? 500 : 30);
      String context = "seed " + seed + ", cycle " + cycle + ", run seed " + runSeed;
      long lastAck = runChildAndKill(db, runSeed, acksWanted, delayMillis, context);
      totalAcks += lastAck + 1;

      CellModel acknowledged = model.copy();
      for (long id = 0; id <= lastAck; id++) {
        CrashWorkload.step(runSeed, id).applyTo(acknowledged);
      }
      CellModel withInFlight = acknowledged.copy();
      CrashWorkload.step(runSeed, lastAck + 1).applyTo(withInFlight);

      try (Db reopened = Db.open(db, CrashWorkload.options())) {
        List<String> found = CellModel.scan(reopened, null, null);
        if (found.equals(acknowledged.scan(null, null))) {
          model = acknowledged;
        } else if (found.equals(withInFlight.scan(null, null))) {
          model = withInFlight;
        } else {
          assertEquals(
              acknowledged.scan(null, null),
              found,
              context + ": after " + (lastAck + 1) + " acknowledged steps the database holds"
                  + " neither them nor them plus step " + (lastAck + 1));
        }
        for (byte[] row : model.rows()) {
          assertEquals(
              model.describeRow(row), CellModel.describeRow(row, reopened.getRow(row)), context);
        }
        for (int i = 0; i < 50; i++) {
          byte[] row = b("row" + r.nextInt(CrashWorkload.ROWS));
          byte[] column = r.nextBoolean() ? new byte[0] : new byte[] {(byte) ('a' + r.nextInt(5))};
          assertEquals(
              CellModel.describeValue(model.get(row, column)),
              CellModel.describeValue(reopened.get(row, column)),
              context);
        }
      }
    }
    assertTrue(totalAcks > CYCLES, "the children acknowledged only " + totalAcks + " steps");
  }

  /**
   * Starts a {@link CrashWriter}, waits for {@code acksWanted} acknowledgements (or, when negative,
   * for nothing) plus {@code delayMillis}, kills it with SIGKILL and returns the last acknowledged
   * step (-1 for none).
   */
  private long runChildAndKill(
      Path db, long runSeed, long acksWanted, long delayMillis, String context) throws Exception {
    Path stderr = scratch.resolve("child-" + runSeed + ".err");
    Process p = ChildJvm.start(CrashWriter.class, stderr, db.toString(), Long.toString(runSeed));
    long lastAck = -1;
    try (BufferedReader in =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      if (acksWanted >= 0) {
        String line;
        while (lastAck + 1 < acksWanted && (line = in.readLine()) != null) {
          lastAck = parseAck(line, lastAck);
        }
        if (lastAck + 1 < acksWanted) {
          p.waitFor(10, TimeUnit.SECONDS);
          fail(context + ": the child ended early: " + Files.readString(stderr));
        }
      }
      Thread.sleep(delayMillis);
      // SIGKILL on Linux. Through the handle, because Process.destroyForcibly() also closes the
      // pipe, and the acknowledgements still in it would be lost.
      p.toHandle().destroyForcibly();
      assertTrue(p.waitFor(60, TimeUnit.SECONDS), context + ": the child did not die");
      // Lines already in the pipe were acknowledged before the kill.
      for (String line; (line = in.readLine()) != null; ) {
        lastAck = parseAck(line, lastAck);
      }
    } finally {
      p.destroyForcibly();
    }
    String errors = Files.readString(stderr);
    assertTrue(
        !errors.contains("Exception") && !errors.contains("Error"),
        context + ": the child failed before the kill: " + errors);
    return lastAck;
  }

  private static long parseAck(String line, long lastAck) {
    if (line.equals("open")) {
      return lastAck;
    }
    long id = Long.parseLong(line);
    assertEquals(lastAck + 1, id, "acknowledgements out of order");
    return id;
  }

  // ---------------------------------------------------------------- the log

  /**
   * Writes five puts (one log record each) and leaves in {@code db} what a kill after the last one
   * leaves (no clean close, which would record the log as forced); returns each record's end.
   */
  private static List<Long> fiveRecords(Path db) throws IOException {
    List<Long> ends = new ArrayList<>();
    Path live = db.resolveSibling(db.getFileName() + "-live");
    try (Db d = Db.open(live, DbOptions.builder().autoCompaction(false).build())) {
      for (int i = 1; i <= 5; i++) {
        d.put(b("k" + i), b("value-" + i + "-" + "x".repeat(20)));
        ends.add(Files.size(newestLog(live)));
      }
      CrashCopy.copy(live, db);
    }
    return ends;
  }

  private static Path newestLog(Path db) throws IOException {
    try (Stream<Path> files = Files.list(db)) {
      return files
          .filter(p -> p.getFileName().toString().endsWith(FileNames.LOG_SUFFIX))
          .max(Comparator.comparing(p -> p.getFileName().toString()))
          .orElseThrow();
    }
  }

  private static Path copyDir(Path from, Path to) throws IOException {
    return CrashCopy.copy(from, to);
  }

  private static void assertFirstKeys(Db d, int present) throws IOException {
    for (int i = 1; i <= 5; i++) {
      if (i <= present) {
        assertArrayEquals(b("value-" + i + "-" + "x".repeat(20)), d.get(b("k" + i)), "k" + i);
      } else {
        assertNull(d.get(b("k" + i)), "k" + i);
      }
    }
  }

  @Test
  void open_tornLastLogRecord_isDropped() throws IOException {
    Path original = dir.resolve("original");
    List<Long> ends = fiveRecords(original);
    for (long size = ends.get(3); size < ends.get(4); size++) {
      Path copy = copyDir(original, scratch.resolve("torn"));
      CorruptFiles.truncate(newestLog(copy), size);
      try (Db d = Db.open(copy)) {
        assertFirstKeys(d, 4);
        d.put(b("k5"), b("value-5-" + "x".repeat(20))); // a new log after the dropped tail
      }
      try (Db d = Db.open(copy)) {
        assertFirstKeys(d, 5);
      }
    }
  }

  @Test
  void open_tornLastLogRecordThenZeros_isDropped() throws IOException {
    Path original = dir.resolve("original");
    List<Long> ends = fiveRecords(original);
    Path copy = copyDir(original, scratch.resolve("zeros"));
    // A power loss: the last record's bytes were allocated but never written.
    CorruptFiles.zero(newestLog(copy), ends.get(3), (int) (ends.get(4) - ends.get(3)));
    try (Db d = Db.open(copy)) {
      assertFirstKeys(d, 4);
    }
  }

  @Test
  void open_damageBeforeTheLastLogRecord_failsWithCorruptionUnderAbsoluteConsistency()
      throws IOException {
    Path original = dir.resolve("original");
    List<Long> ends = fiveRecords(original);
    Random r = new Random(ends.get(0));
    DbOptions absolute =
        DbOptions.builder().walRecovery(WalRecoveryMode.ABSOLUTE_CONSISTENCY).build();
    for (long offset = 0; offset < ends.get(3); offset++) {
      Path copy = copyDir(original, scratch.resolve("flip"));
      CorruptFiles.flipBit(newestLog(copy), offset, r.nextInt(8));
      long at = offset;
      CorruptionException e =
          assertThrows(
              CorruptionException.class, () -> Db.open(copy, absolute).close(), "flip at " + at);
      assertTrue(e.getMessage().contains(".log"), "the message names the log: " + e.getMessage());
    }
  }

  /**
   * The default, point-in-time recovery: damage in a record keeps exactly the records before it
   * (a prefix, never one from after the damage), reports the drop, and starts a new log, so the
   * writes after the reopen survive the next one.
   */
  @Test
  void open_damageBeforeTheLastLogRecord_keepsThePrefixBeforeItUnderPointInTime()
      throws IOException {
    Path original = dir.resolve("original");
    List<Long> ends = fiveRecords(original);
    Random r = new Random(ends.get(0));
    for (long offset = LogFormat.FILE_HEADER_BYTES; offset < ends.get(3); offset += 1 + r.nextInt(5)) {
      Path copy = copyDir(original, scratch.resolve("flip"));
      CorruptFiles.flipBit(newestLog(copy), offset, r.nextInt(8));
      int intact = 0; // records that end before the flipped byte
      while (ends.get(intact) <= offset) {
        intact++;
      }
      String at = "flip at " + offset;
      try (Db d = Db.open(copy)) {
        assertFirstKeys(d, intact);
        DbStats stats = d.stats();
        assertEquals(ends.get(4) - (intact == 0 ? LogFormat.FILE_HEADER_BYTES : ends.get(intact - 1)),
            stats.recovery().walBytesDropped(), at);
        assertTrue(stats.recovery().walRecordsDropped() >= 1, at);
        d.put(b("after"), b("reopen"));
      }
      try (Db d = Db.open(copy)) {
        assertFirstKeys(d, intact);
        assertArrayEquals(b("reopen"), d.get(b("after")), at);
        assertEquals(0, d.stats().recovery().walBytesDropped(), at);
      }
    }
  }

  @Test
  void open_damageInTheLastLogRecord_dropsItOrFails() throws IOException {
    Path original = dir.resolve("original");
    List<Long> ends = fiveRecords(original);
    for (long offset = ends.get(3); offset < ends.get(4); offset++) {
      Path copy = copyDir(original, scratch.resolve("flip"));
      CorruptFiles.flipBit(newestLog(copy), offset, (int) (offset % 8));
      try (Db d = Db.open(copy)) {
        assertFirstKeys(d, 4);
      } catch (CorruptionException expected) {
        // A damaged header followed by a payload is not a torn write.
      }
    }
  }

  // ---------------------------------------------------------------- the manifest

  /**
   * A flipped bit anywhere in the manifest, its last record included, is corruption in every mode:
   * a whole record failing its crc may be an edit the engine acted on. A cut before the first
   * record ends leaves no state at all.
   */
  @Test
  void open_anyDamageToTheManifest_failsWithCorruption() throws IOException {
    Path original = dir.resolve("original");
    try (Db d = Db.open(original, DbOptions.builder().autoCompaction(false).build())) {
      for (int i = 0; i < 3; i++) {
        d.put(b("row" + i), b("c"), b("v" + i));
        d.flush();
      }
    }
    DbOptions absolute =
        DbOptions.builder().walRecovery(WalRecoveryMode.ABSOLUTE_CONSISTENCY).build();
    long size = Files.size(FileNames.manifest(original));
    for (long offset = 0; offset < size; offset++) {
      Path copy = copyDir(original, scratch.resolve("manifest"));
      CorruptFiles.flipBit(FileNames.manifest(copy), offset, (int) (offset * 3 % 8));
      long at = offset;
      assertThrows(
          CorruptionException.class, () -> Db.open(copy, absolute).close(), "flip at " + at);
      assertThrows(CorruptionException.class, () -> Db.open(copy).close(), "flip at " + at);
    }
    long firstRecordEnd = manifestRecordEnds(FileNames.manifest(original)).get(0);
    for (long cut : new long[] {0, 1, firstRecordEnd / 2, firstRecordEnd - 1}) {
      Path copy = copyDir(original, scratch.resolve("manifest"));
      CorruptFiles.truncate(FileNames.manifest(copy), cut);
      assertThrows(CorruptionException.class, () -> Db.open(copy).close(), "cut at " + cut);
    }
  }

  /**
   * What a SIGKILL in the middle of a manifest write leaves: an edit appended only in part (every
   * prefix of a real record, or zeros where it would be), or a rewrite's {@code MANIFEST.tmp} cut
   * short beside the intact manifest. The engine acts on a record only once it is fsynced, so each
   * of these must open with every acknowledged write, and the next change must write a manifest
   * that opens again.
   */
  @Test
  void manifest_editOrRewriteCutShortByAKill_opensWithEveryAcknowledgedWrite() throws IOException {
    Path original = dir.resolve("original");
    CellModel model = crashWorkloadFlushed(original);
    Path manifest = FileNames.manifest(original);
    byte[] bytes = Files.readAllBytes(manifest);
    List<Long> ends = manifestRecordEnds(manifest);
    assertTrue(ends.size() >= 2, "a snapshot and at least one edit: " + ends);
    int lastStart = (int) (long) ends.get(ends.size() - 2);
    byte[] record = Arrays.copyOfRange(bytes, lastStart, bytes.length); // a real edit's bytes
    for (int cut = 1; cut < record.length; cut += Math.max(1, record.length / 40)) {
      Path copy = copyDir(original, scratch.resolve("torn-edit"));
      byte[] torn = Arrays.copyOf(bytes, bytes.length + cut);
      System.arraycopy(record, 0, torn, bytes.length, cut);
      Files.write(FileNames.manifest(copy), torn);
      assertOpensWith(copy, model, "edit cut after " + cut + " of " + record.length + " bytes");
    }
    Path zeros = copyDir(original, scratch.resolve("torn-edit"));
    Files.write(FileNames.manifest(zeros), Arrays.copyOf(bytes, bytes.length + record.length));
    assertOpensWith(zeros, model, "an edit's length of zeros");
    for (int cut : new int[] {0, 5, bytes.length / 2, bytes.length - 1}) {
      Path copy = copyDir(original, scratch.resolve("torn-rewrite"));
      Files.write(FileNames.manifestTemp(copy), Arrays.copyOf(bytes, cut));
      assertOpensWith(copy, model, "rewrite cut after " + cut + " bytes");
      assertTrue(Files.notExists(FileNames.manifestTemp(copy)), "the leftover is deleted");
    }
  }

  /**
   * A whole edit appended after the last one with other bytes where its payload should be, or any
   * bytes after it, is not what a crash or a power loss leaves (a cut append, or whole sectors that
   * never arrived, read as zeros: see ManifestLogTest): it is corruption in every recovery mode, and
   * the file is left as it is.
   */
  @Test
  void manifest_lastEditDamagedOtherwiseThanByACrash_isCorruptionInEveryMode() throws IOException {
    Path original = dir.resolve("original");
    crashWorkloadFlushed(original);
    byte[] bytes = Files.readAllBytes(FileNames.manifest(original));
    List<Long> ends = manifestRecordEnds(FileNames.manifest(original));
    int lastStart = (int) (long) ends.get(ends.size() - 2);
    byte[] record = Arrays.copyOfRange(bytes, lastStart, bytes.length); // a real edit's bytes
    // Other bytes through to the end of the file: never zeros there (whole sectors of zeros at
    // the end are what a power loss leaves).
    byte[] otherBytes = record.clone();
    for (int i = 13; i < otherBytes.length; i += 2) {
      otherBytes[i] ^= (byte) 0x5A;
    }
    otherBytes[otherBytes.length - 1] = (byte) (otherBytes[otherBytes.length - 1] == 0x77 ? 0x78 : 0x77);
    byte[] garbage = Arrays.copyOf(bytes, bytes.length + otherBytes.length);
    System.arraycopy(otherBytes, 0, garbage, bytes.length, otherBytes.length);
    byte[] zeroTail = record.clone();
    Arrays.fill(zeroTail, zeroTail.length / 2, zeroTail.length, (byte) 0);
    byte[] tornThenStale = Arrays.copyOf(bytes, bytes.length + zeroTail.length + 1);
    System.arraycopy(zeroTail, 0, tornThenStale, bytes.length, zeroTail.length);
    tornThenStale[tornThenStale.length - 1] = 0x33;
    byte[] followed = Arrays.copyOf(garbage, garbage.length + record.length);
    System.arraycopy(record, 0, followed, garbage.length, record.length);
    DbOptions absolute =
        CrashWorkload.options().toBuilder()
            .walRecovery(WalRecoveryMode.ABSOLUTE_CONSISTENCY)
            .build();
    Map<String, byte[]> cases =
        Map.of("other bytes", garbage, "torn then a stale byte", tornThenStale,
            "followed by a whole record", followed);
    for (Map.Entry<String, byte[]> c : cases.entrySet()) {
      byte[] damaged = c.getValue();
      for (DbOptions options : List.of(absolute, CrashWorkload.options())) {
        Path copy = copyDir(original, scratch.resolve("damaged"));
        Files.write(FileNames.manifest(copy), damaged);
        CorruptionException e =
            assertThrows(
                CorruptionException.class,
                () -> Db.open(copy, options).close(),
                c.getKey() + " under " + options.memtable().walRecovery());
        assertTrue(e.getMessage().contains("MANIFEST"), e.getMessage());
        assertArrayEquals(damaged, Files.readAllBytes(FileNames.manifest(copy)), "left as it is");
      }
    }
  }

  /** Runs the crash workload into {@code original}, flushes it, and returns what it holds. */
  private static CellModel crashWorkloadFlushed(Path original) throws IOException {
    CellModel model = new CellModel();
    try (Db d = Db.open(original, CrashWorkload.options())) {
      for (long id = 0; id < 400; id++) {
        CrashWorkload.Step step = CrashWorkload.step(7, id);
        step.applyTo(d);
        step.applyTo(model);
      }
      d.flush();
    }
    return model;
  }

  /** Opens {@code copy}, checks it holds {@code model}, changes it, and opens it once more. */
  private static void assertOpensWith(Path copy, CellModel model, String context)
      throws IOException {
    try (Db d = Db.open(copy, CrashWorkload.options())) {
      assertEquals(model.scan(null, null), CellModel.scan(d, null, null), context);
      d.put(b("after"), b("c"), b("v"));
      d.flush(); // a manifest change after the tear
    }
    try (Db d = Db.open(copy, CrashWorkload.options())) {
      assertArrayEquals(b("v"), d.get(b("after"), b("c")), context);
    }
  }

  /** The offsets where the records of a version-2 manifest end, in order. */
  private static List<Long> manifestRecordEnds(Path manifest) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(manifest)).order(ByteOrder.LITTLE_ENDIAN);
    List<Long> ends = new ArrayList<>();
    int at = 16; // magic, version, header crc
    while (at + 12 <= b.capacity()) {
      at += 12 + b.getInt(at);
      ends.add((long) at);
    }
    return ends;
  }

  /**
   * A SIGKILL during the very first open once left a log but no manifest, a directory that no
   * longer opened (found by the kill test in CI): a new database must write its manifest before
   * any other file, so the state the recovery step hands on already opens.
   */
  @Test
  void open_newDirectory_writesTheManifestBeforeAnyLog() throws IOException {
    Path fresh = Files.createDirectories(dir.resolve("fresh"));
    try (TableCache tables =
        new TableCache(fresh, TableCache.UNLIMITED, new ClockBlockCache(0, 1), new ReadCounters())) {
      Recovery r =
          Recovery.run(
              fresh,
              FileLayer.real(),
              tables,
              new ObsoleteFiles(fresh, tables, null),
              DbOptions.defaults(),
              MemTable::new);
      assertTrue(r.levels.stream().allMatch(List::isEmpty));
      r.replayed.release();
    }
    assertTrue(Files.exists(FileNames.manifest(fresh)), "a new database starts with its manifest");
    try (Stream<Path> files = Files.list(fresh)) {
      assertEquals(List.of(FileNames.manifest(fresh)), files.toList());
    }
    try (Db d = Db.open(fresh)) {
      assertNull(d.get(b("k")));
    }
  }

  @Test
  void open_dataWithoutAManifest_failsWithCorruption() throws IOException {
    Path original = dir.resolve("lost-manifest");
    try (Db d = Db.open(original, DbOptions.builder().autoCompaction(false).build())) {
      d.put(b("row"), b("c"), b("v"));
      d.flush();
      d.put(b("row2"), b("c"), b("v"));
    }
    Files.delete(FileNames.manifest(original));
    CorruptionException e = assertThrows(CorruptionException.class, () -> Db.open(original).close());
    assertTrue(e.getMessage().contains("no MANIFEST"), e.getMessage());
  }

  // ---------------------------------------------------------------- tables

  /** One table of many small blocks; returns the cells it holds. */
  private static CellModel oneTable(Path db, BloomType type) throws IOException {
    CellModel model = new CellModel();
    DbOptions options =
        DbOptions.builder().bloomType(type).blockSizeBytes(128).bloomChunkBytes(128).build();
    try (Db d = Db.open(db, options)) {
      for (int i = 0; i < 400; i++) {
        byte[] row = b(String.format("row%04d", i));
        byte[] value = b("value" + i);
        d.put(row, b("c"), value);
        model.put(row, b("c"), value);
      }
      d.compact();
      assertEquals(1, d.stats().tableCount());
    }
    return model;
  }

  private static Path onlyTable(Path db) throws IOException {
    try (Stream<Path> files = Files.list(db)) {
      List<Path> tables =
          files.filter(p -> p.getFileName().toString().endsWith(FileNames.TABLE_SUFFIX)).toList();
      assertEquals(1, tables.size(), tables.toString());
      return tables.get(0);
    }
  }

  /**
   * Opens the damaged copy and reads everything: true when a CorruptionException was reported,
   * false when every answer was right; wrong data fails the test.
   */
  private static boolean readsRightOrReportsCorruption(Path copy, CellModel model, String context)
      throws IOException {
    try (Db d = Db.open(copy)) {
      assertEquals(model.scan(null, null), CellModel.scan(d, null, null), context);
      for (byte[] row : model.rows()) {
        assertArrayEquals(model.get(row, b("c")), d.get(row, b("c")), context);
        assertNull(d.get(row, b("d")), context);
      }
      return false;
    } catch (CorruptionException e) {
      assertNotNull(e.getMessage(), context);
      assertTrue(e.getMessage().contains(".sst"), context + ": names the table: " + e.getMessage());
      return true;
    } catch (UncheckedIOException e) {
      assertTrue(e.getCause() instanceof CorruptionException, context + ": " + e);
      assertTrue(e.getCause().getMessage().contains(".sst"), context + ": " + e.getCause());
      return true;
    }
  }

  @Test
  void read_damagedDataBlock_reportsCorruption() throws IOException {
    Path original = dir.resolve("original");
    CellModel model = oneTable(original, BloomType.NONE);
    long size = Files.size(onlyTable(original));
    Random r = new Random(size);
    // Without filters the file starts with data blocks only, most of its length.
    for (int i = 0; i < 60; i++) {
      long offset = r.nextInt((int) (size / 2));
      Path copy = copyDir(original, scratch.resolve("table"));
      CorruptFiles.flipBit(onlyTable(copy), offset, r.nextInt(8));
      String context = "flip at " + offset + " of " + size;
      assertTrue(readsRightOrReportsCorruption(copy, model, context), context + " went unnoticed");
    }
  }

  @Test
  void read_damageAnywhereInATable_neverGivesWrongData() throws IOException {
    for (BloomType type : BloomType.values()) {
      Path original = dir.resolve("original-" + type);
      CellModel model = oneTable(original, type);
      long size = Files.size(onlyTable(original));
      Random r = new Random(size + type.ordinal());
      int reported = 0;
      for (int i = 0; i < 60; i++) {
        // The tail (footer, properties, index) gets its share of the flips.
        long offset = i % 3 == 0 ? size - 1 - r.nextInt(300) : r.nextInt((int) size);
        Path copy = copyDir(original, scratch.resolve("table"));
        CorruptFiles.flipBit(onlyTable(copy), offset, r.nextInt(8));
        if (readsRightOrReportsCorruption(copy, model, type + " flip at " + offset + " of " + size)) {
          reported++;
        }
      }
      assertTrue(reported > 0, type + ": no flip was reported");
    }
  }
}
