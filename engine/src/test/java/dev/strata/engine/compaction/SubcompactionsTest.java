package dev.strata.engine.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.engine.manifest.FileMetadata;
import dev.strata.engine.version.ObsoleteFiles;
import dev.strata.engine.version.TableCache;
import dev.strata.engine.version.TableRef;
import dev.strata.sstable.ReadCounters;
import dev.strata.sstable.cache.ClockBlockCache;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.ValueKind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where a level-0 compaction is cut into jobs: between level-1 tables, in about equal shares. */
class SubcompactionsTest {
  @TempDir Path dir;
  private TableCache cache;
  private ObsoleteFiles obsolete;

  @BeforeEach
  void open() {
    cache = new TableCache(dir, -1, new ClockBlockCache(1 << 20), new ReadCounters());
    obsolete = new ObsoleteFiles(dir, cache, null);
  }

  @AfterEach
  void close() {
    obsolete.close();
    cache.close();
  }

  @Test
  void oneJobOrFewerThanTwoTablesGiveNoCut() throws IOException {
    assertEquals(List.of(), rows(Subcompactions.boundaries(tables(10, 10, 10), 1)));
    assertEquals(List.of(), rows(Subcompactions.boundaries(tables(10), 4)));
    assertEquals(List.of(), rows(Subcompactions.boundaries(List.of(), 4)));
  }

  @Test
  void equalTablesAreSharedEvenly() throws IOException {
    List<TableRef> t = tables(10, 10, 10, 10, 10, 10, 10, 10);
    assertEquals(List.of("t4"), rows(Subcompactions.boundaries(t, 2)));
    assertEquals(List.of("t2", "t4", "t6"), rows(Subcompactions.boundaries(t, 4)));
  }

  @Test
  void neverMoreJobsThanTables() throws IOException {
    assertEquals(List.of("t1", "t2"), rows(Subcompactions.boundaries(tables(10, 10, 10), 8)));
  }

  @Test
  void sharesFollowBytesNotTableCounts() throws IOException {
    // 90 of 120 bytes sit in the first table: the second job starts right after it.
    assertEquals(List.of("t1"), rows(Subcompactions.boundaries(tables(90, 10, 10, 10), 2)));
  }

  @Test
  void boundariesAscend() throws IOException {
    List<String> b = rows(Subcompactions.boundaries(tables(5, 30, 1, 1, 40, 2, 9, 12, 3), 5));
    for (int i = 1; i < b.size(); i++) {
      assertTrue(b.get(i - 1).compareTo(b.get(i)) < 0, b.toString());
    }
    assertTrue(b.size() <= 4, b.toString());
  }

  /** Level-1 tables t0, t1, ... of the given sizes, each spanning rows [ti, ti~]. */
  private List<TableRef> tables(long... sizes) throws IOException {
    List<TableRef> out = new ArrayList<>();
    for (int i = 0; i < sizes.length; i++) {
      FileMetadata m =
          new FileMetadata(i + 1, 1, sizes[i], 1, 1, 1, key("t" + i), key("t" + i + "~"), 0);
      out.add(TableRef.open(dir, m, cache, obsolete));
    }
    return out;
  }

  private static InternalKey key(String row) {
    return new InternalKey(row.getBytes(StandardCharsets.UTF_8), new byte[0], 1, ValueKind.PUT);
  }

  private static List<String> rows(List<byte[]> rows) {
    List<String> out = new ArrayList<>();
    rows.forEach(r -> out.add(new String(r, StandardCharsets.UTF_8)));
    return out;
  }
}
