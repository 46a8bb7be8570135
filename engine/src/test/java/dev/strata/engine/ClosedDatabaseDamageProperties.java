package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.strata.engine.fs.FileNames;
import dev.strata.engine.log.LogFormat;
import dev.strata.engine.manifest.ManifestFormat;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A database closed cleanly, then one file damaged the way an outside tester would: one byte flipped
 * with a random xor at a seeded sample of positions across every file, or one file cut at every
 * record boundary and inside every record. For every bloom type and both recovery modes, each
 * damaged copy must either fail {@link Db#open} with {@link CorruptionException}, or open and answer
 * every read with exactly what was written: a read may fail with {@code CorruptionException} too,
 * but never return a wrong value, or nothing for a cell that was written. Anything else (a silent
 * loss, a wrong answer, another exception type) fails the property.
 *
 * <p>Seeded: the seed is printed, and {@code -Dstrata.seed=N} replays a run.
 */
final class ClosedDatabaseDamageProperties {
  /** Flipped positions per bloom type and recovery mode, spread over every file. */
  private static final int FLIPS = Integer.getInteger("strata.test.damageFlips", 2_000);

  @TempDir Path dir;

  /** The copies live in memory when the machine has a tmpfs: thousands of opens, little I/O. */
  private static Path scratchRoot(Path fallback) {
    Path shm = Path.of("/dev/shm");
    return Files.isDirectory(shm) && Files.isWritable(shm) ? shm : fallback;
  }

  private static DbOptions options(BloomType bloom, WalRecoveryMode mode) {
    return DbOptions.builder()
        .bloomType(bloom)
        .walRecovery(mode)
        .memtableBytes(24 << 10)
        .blockSizeBytes(512)
        .bloomChunkBytes(256)
        .targetFileSizeBytes(16 << 10)
        .level0CompactionTrigger(3)
        .blockCacheBytes(1 << 20)
        .build();
  }

  /**
   * Writes puts, deletes and row deletes through several flushes and compactions, leaves the last
   * writes in the log, closes, and returns what the database must hold.
   */
  private static CellModel build(Path db, BloomType bloom, Random random) throws IOException {
    CellModel model = new CellModel();
    try (Db d = Db.open(db, options(bloom, WalRecoveryMode.POINT_IN_TIME))) {
      // At least 2,400 writes, and on until there are several tables: how many the flushes and
      // background compactions leave depends on their timing, not only on the writes.
      for (int i = 0; i < 2_400 || (i < 24_000 && d.stats().tableCount() < 3); i++) {
        byte[] row = b("row" + random.nextInt(300));
        byte[] column = b("c" + random.nextInt(4));
        int op = random.nextInt(20);
        if (op == 0) {
          d.deleteRow(row);
          model.deleteRow(row);
        } else if (op == 1) {
          d.delete(row, column);
          model.delete(row, column);
        } else {
          byte[] value = new byte[8 + random.nextInt(40)];
          random.nextBytes(value);
          d.put(row, column, value);
          model.put(row, column, value);
        }
      }
      assertTrue(d.stats().tableCount() >= 3, "several tables: " + d.stats().tableCount());
    }
    assertTrue(logBytes(db) > LogFormat.FILE_HEADER_BYTES, "writes left in the log");
    return model;
  }

  @Test
  void oneFlippedByte_failsTheOpenOrTheRead_neverLosesOrChangesACell() throws IOException {
    long seed = Long.getLong("strata.seed", System.nanoTime());
    System.out.println("ClosedDatabaseDamageProperties flips seed=" + seed);
    Random random = new Random(seed);
    Path scratch = Files.createTempDirectory(scratchRoot(dir), "flips");
    try {
      for (BloomType bloom : BloomType.values()) {
        Path original = dir.resolve("flip-" + bloom);
        CellModel model = build(original, bloom, random);
        List<Path> files = dataFiles(original);
        for (WalRecoveryMode mode : WalRecoveryMode.values()) {
          Outcomes outcomes = new Outcomes();
          for (Target t : flipTargets(files, FLIPS, random)) {
            int xor = 1 + random.nextInt(255);
            String context =
                "seed=" + seed + " " + bloom + " " + mode + " " + t.file().getFileName() + " byte "
                    + t.offset() + " ^" + xor;
            Path copy = CrashCopy.copy(original, scratch.resolve("copy"));
            flip(copy.resolve(t.file().getFileName()), t.offset(), xor);
            check(copy, options(bloom, mode), model, outcomes, context);
          }
          System.out.println("flips " + bloom + " " + mode + ": " + outcomes);
          assertTrue(outcomes.trials() >= FLIPS, outcomes.toString());
          assertTrue(outcomes.failedOpens > 0, "no flip failed the open: " + outcomes);
        }
      }
    } finally {
      deleteTree(scratch);
    }
  }

  @Test
  void oneFileCut_atEveryRecordBoundaryAndInsideEveryRecord_failsOrKeepsEverything()
      throws IOException {
    long seed = Long.getLong("strata.seed", System.nanoTime());
    System.out.println("ClosedDatabaseDamageProperties cuts seed=" + seed);
    Random random = new Random(seed);
    Path scratch = Files.createTempDirectory(scratchRoot(dir), "cuts");
    try {
      for (BloomType bloom : BloomType.values()) {
        Path original = dir.resolve("cut-" + bloom);
        CellModel model = build(original, bloom, random);
        for (WalRecoveryMode mode : WalRecoveryMode.values()) {
          Outcomes outcomes = new Outcomes();
          for (Path file : dataFiles(original)) {
            for (long cut : cutPoints(file, random)) {
              String context =
                  "seed=" + seed + " " + bloom + " " + mode + " " + file.getFileName() + " cut at "
                      + cut;
              Path copy = CrashCopy.copy(original, scratch.resolve("copy"));
              try (var ch =
                  java.nio.channels.FileChannel.open(
                      copy.resolve(file.getFileName()), java.nio.file.StandardOpenOption.WRITE)) {
                ch.truncate(cut);
              }
              check(copy, options(bloom, mode), model, outcomes, context);
            }
          }
          System.out.println("cuts " + bloom + " " + mode + ": " + outcomes);
          assertTrue(outcomes.failedOpens > 0, "no cut failed the open: " + outcomes);
        }
      }
    } finally {
      deleteTree(scratch);
    }
  }

  /** What the damaged copies did. */
  private static final class Outcomes {
    int failedOpens;
    int readsFailed;
    int allRight;

    int trials() {
      return failedOpens + readsFailed + allRight;
    }

    @Override
    public String toString() {
      return failedOpens + " failed the open, " + readsFailed + " failed a read, " + allRight
          + " read back whole";
    }
  }

  /**
   * Opens the damaged copy and reads every cell the model holds, some it does not, and the whole
   * database by a scan; records the outcome, or fails on a wrong answer or an unexpected exception.
   */
  private static void check(
      Path copy, DbOptions options, CellModel model, Outcomes outcomes, String context) {
    Db db;
    try {
      db = Db.open(copy, options);
    } catch (CorruptionException e) {
      outcomes.failedOpens++;
      return;
    } catch (IOException | RuntimeException e) {
      throw new AssertionError(context + ": open failed with other than corruption", e);
    }
    boolean readFailed = false;
    try {
      try {
        for (Map.Entry<CellModel.Key, byte[]> cell : model.cells().entrySet()) {
          byte[] got = db.get(cell.getKey().row(), cell.getKey().column());
          if (got == null) {
            fail(context + ": cell " + cell.getKey() + " silently lost");
          }
          assertEquals(
              CellModel.describeValue(cell.getValue()), CellModel.describeValue(got),
              context + ": wrong value for " + cell.getKey());
        }
        for (int i = 0; i < 20; i++) {
          byte[] row = b("absent" + i);
          if (db.get(row, b("c0")) != null) {
            fail(context + ": a value for a cell never written");
          }
        }
        assertEquals(model.scan(null, null), CellModel.scan(db, null, null), context + ": scan");
      } catch (CorruptionException e) {
        readFailed = true;
      } catch (UncheckedIOException e) {
        if (!(e.getCause() instanceof CorruptionException)) {
          throw new AssertionError(context + ": a read failed with other than corruption", e);
        }
        readFailed = true;
      } catch (IOException | RuntimeException e) {
        throw new AssertionError(context + ": a read failed with other than corruption", e);
      }
    } finally {
      try {
        db.close();
      } catch (IOException e) {
        throw new AssertionError(context + ": close failed", e);
      }
    }
    if (readFailed) {
      outcomes.readsFailed++;
    } else {
      outcomes.allRight++;
    }
  }

  /** A byte of a file. */
  private record Target(Path file, long offset) {}

  /**
   * {@code count} positions across {@code files}, spread so that every file gets its share of its
   * size and at least a tenth of the count (or every byte of a smaller file): the small manifest
   * and log matter as much as the tables.
   */
  private static List<Target> flipTargets(List<Path> files, int count, Random random)
      throws IOException {
    long total = 0;
    for (Path f : files) {
      total += Files.size(f);
    }
    List<Target> out = new ArrayList<>();
    for (Path f : files) {
      long size = Files.size(f);
      long share = Math.max(count / 10, Math.round((double) count * size / total));
      if (share >= size) {
        for (long at = 0; at < size; at++) {
          out.add(new Target(f, at));
        }
      } else {
        for (long i = 0; i < share; i++) {
          out.add(new Target(f, (long) (random.nextDouble() * size)));
        }
      }
    }
    return out;
  }

  /**
   * Where to cut {@code file}: every record boundary and a point inside every record of the
   * manifest and the logs (their records are parsed); for a table, whose footer goes with any cut,
   * its start, its end's last bytes and a seeded sample in between.
   */
  private static List<Long> cutPoints(Path file, Random random) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    List<Long> boundaries = new ArrayList<>();
    String name = file.getFileName().toString();
    if (name.equals(FileNames.MANIFEST)) {
      recordBoundaries(bytes, ManifestFormat.HEADER_BYTES, 0, boundaries);
    } else if (name.endsWith(FileNames.LOG_SUFFIX)) {
      recordBoundaries(bytes, LogFormat.FILE_HEADER_BYTES, 4, boundaries);
    } else {
      boundaries.add(0L);
      for (int i = 0; i < 12; i++) {
        boundaries.add((long) random.nextInt(bytes.length));
      }
      boundaries.add((long) bytes.length - 1);
      return boundaries;
    }
    List<Long> cuts = new ArrayList<>();
    cuts.add(0L);
    for (int i = 0; i < boundaries.size(); i++) {
      long start = i == 0 ? 0 : boundaries.get(i - 1);
      long end = boundaries.get(i);
      if (end > start + 1) {
        cuts.add(start + 1 + random.nextInt((int) (end - start - 1))); // inside the record
      }
      if (end < bytes.length) {
        cuts.add(end);
      }
    }
    return cuts;
  }

  /**
   * Appends to {@code out} the end of the file header and of every record after it: records are
   * a 12-byte header whose u32 length sits at {@code lengthAt}, then the payload.
   */
  private static void recordBoundaries(byte[] bytes, int headerBytes, int lengthAt, List<Long> out) {
    ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    long at = headerBytes;
    out.add(at);
    while (at + 12 <= bytes.length) {
      long length = Integer.toUnsignedLong(b.getInt((int) at + lengthAt));
      at += 12 + length;
      if (at > bytes.length) {
        break;
      }
      out.add(at);
    }
  }

  private static List<Path> dataFiles(Path db) throws IOException {
    try (Stream<Path> s = Files.list(db)) {
      return s.filter(p -> !p.getFileName().toString().equals(FileNames.LOCK)).sorted().toList();
    }
  }

  private static long logBytes(Path db) throws IOException {
    long n = 0;
    for (Path p : dataFiles(db)) {
      if (p.getFileName().toString().endsWith(FileNames.LOG_SUFFIX)) {
        n += Files.size(p);
      }
    }
    return n;
  }

  private static void flip(Path file, long offset, int xor) throws IOException {
    try (var ch =
        java.nio.channels.FileChannel.open(
            file, java.nio.file.StandardOpenOption.READ, java.nio.file.StandardOpenOption.WRITE)) {
      ByteBuffer one = ByteBuffer.allocate(1);
      ch.read(one, offset);
      one.flip();
      byte flipped = (byte) (one.get(0) ^ xor);
      ch.write(ByteBuffer.wrap(new byte[] {flipped}), offset);
    }
  }

  private static void deleteTree(Path root) throws IOException {
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.sorted((x, y) -> y.getNameCount() - x.getNameCount()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
