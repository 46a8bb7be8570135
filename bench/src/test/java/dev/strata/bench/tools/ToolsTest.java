package dev.strata.bench.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.bench.CliRun;
import dev.strata.engine.BloomType;
import dev.strata.engine.Db;
import dev.strata.engine.DbOptions;
import dev.strata.sstable.TableReader;
import dev.strata.sstable.cache.ClockBlockCache;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code inspect}, {@code verify} and {@code stats} on a small two-table ROWCOL database. */
final class ToolsTest {
  @TempDir Path dir;


  @BeforeEach
  void createDatabase() throws IOException {
    DbOptions options = DbOptions.builder().bloomType(BloomType.ROWCOL).bloomChunkBytes(512)
        .autoCompaction(false).build();
    try (Db db = Db.open(dir, options)) {
      for (int table = 0; table < 2; table++) {
        for (int i = 0; i < 1000; i++) {
          byte[] row = String.format("row%06d", i * 2 + table).getBytes(StandardCharsets.US_ASCII);
          db.put(row, "c".getBytes(StandardCharsets.US_ASCII), ("value " + i).repeat(5).getBytes(
              StandardCharsets.US_ASCII));
        }
        db.flush();
      }
    }
  }

  private List<Path> tables() throws IOException {
    return tables(dir);
  }

  private static List<Path> tables(Path in) throws IOException {
    try (Stream<Path> files = Files.list(in)) {
      return files.filter(p -> p.toString().endsWith(".sst")).sorted().toList();
    }
  }

  /** The table's filter chunks; asserts there are several, which the inspect tests want. */
  private static long severalChunks(Path table) throws IOException {
    long chunks;
    try (TableReader r = TableReader.open(table, 1, new ClockBlockCache(0))) {
      chunks = r.properties().filterChunkCount();
    }
    assertTrue(chunks > 1, "the test wants several chunks: " + chunks);
    return chunks;
  }

  @Test
  void inspect_table_printsBloomTypeAndChunkCount() throws IOException {
    Path table = tables().get(0);
    long chunks = severalChunks(table);
    CliRun run = CliRun.of("inspect", table.toString());
    assertEquals(0, run.status(), run.err());
    assertTrue(run.out().contains("bloom type       ROWCOL"), run.out());
    assertTrue(run.out().contains("filter chunks    " + chunks + " chunks"), run.out());
    assertTrue(run.out().contains("chunk " + (chunks - 1)), run.out());
    assertTrue(run.out().contains("filter kinds     BLOOM " + chunks + " chunks"), run.out());
    assertTrue(run.out().contains("RIBBON 0 chunks"), run.out());
    assertTrue(run.out().contains("key range        row"), run.out());
    assertTrue(run.out().contains("compression      raw keys+values / stored data"), run.out());
  }

  @Test
  void inspect_ribbonTable_countsAndListsRibbonChunks(@TempDir Path ribbonDir) throws IOException {
    DbOptions options = DbOptions.builder().bloomChunkBytes(512).ribbonFromLevel(0)
        .autoCompaction(false).build();
    try (Db db = Db.open(ribbonDir, options)) {
      for (int i = 0; i < 2000; i++) {
        db.put(String.format("key%06d", i).getBytes(StandardCharsets.US_ASCII),
            "v".getBytes(StandardCharsets.US_ASCII));
      }
      db.flush();
    }
    Path table = tables(ribbonDir).get(0);
    long chunks = severalChunks(table);
    CliRun run = CliRun.of("inspect", table.toString());
    assertEquals(0, run.status(), run.err());
    assertTrue(run.out().contains("filter kinds     BLOOM 0 chunks"), run.out());
    assertTrue(run.out().contains("RIBBON " + chunks + " chunks"), run.out());
    assertTrue(run.out().contains("chunk 0     RIBBON"), run.out());
    assertFalse(run.out().contains("model FPR"), run.out());
  }

  @Test
  void verify_cleanDatabase_exitsZero() {
    CliRun run = CliRun.of("verify", dir.toString());
    assertEquals(0, run.status(), run.out() + run.err());
    assertTrue(run.out().contains("2 of 2 tables intact"), run.out());
  }

  @Test
  void verify_flippedByteInATable_exitsNonZeroNamingTheFile() throws IOException {
    Path table = tables().get(1);
    try (FileChannel ch = FileChannel.open(table, StandardOpenOption.READ,
        StandardOpenOption.WRITE)) {
      ByteBuffer b = ByteBuffer.allocate(1);
      ch.read(b, 100);
      b.put(0, (byte) (b.get(0) ^ 0x40)).rewind();
      ch.write(b, 100);
    }
    CliRun run = CliRun.of("verify", dir.toString());
    assertEquals(1, run.status(), run.out() + run.err());
    assertTrue(run.err().contains("DAMAGED " + table), run.err());
    assertTrue(run.out().contains("1 of 2 tables intact"), run.out());
  }

  @Test
  void stats_database_printsLevelsTablesAndTableCount() {
    CliRun run = CliRun.of("stats", dir.toString());
    assertEquals(0, run.status(), run.err());
    assertTrue(run.out().contains("L0    2 tables"), run.out());
    assertTrue(run.out().contains("tableCount             2"), run.out());
    assertTrue(run.out().contains("filterBytesOnDisk"), run.out());
    assertTrue(run.out().contains("\n  metadata\n    indexBlocksRead"), run.out());
    assertTrue(run.out().matches("(?s).*\nL0 .* entries .* filter bytes .* bits/key .* FP/Get\n.*"),
        run.out());
  }
}
