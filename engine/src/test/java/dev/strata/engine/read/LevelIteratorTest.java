package dev.strata.engine.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.engine.fs.FileNames;
import dev.strata.engine.manifest.FileMetadata;
import dev.strata.engine.version.ObsoleteFiles;
import dev.strata.engine.version.TableCache;
import dev.strata.engine.version.TableRef;
import dev.strata.sstable.ReadCounters;
import dev.strata.sstable.TableOptions;
import dev.strata.sstable.cache.ClockBlockCache;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.ValueKind;
import dev.strata.sstable.testing.Entry;
import dev.strata.sstable.testing.Tables;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A level read as one iterator, both ways, across table boundaries, with at most one table open:
 * the cache holds one reader, and every step must still see every entry in order.
 */
final class LevelIteratorTest {
  @TempDir Path dir;

  private TableCache cache;
  private ObsoleteFiles obsolete;
  private final List<TableRef> tables = new ArrayList<>();
  /** Rows r00..r29 in three tables of ten; the expected order. */
  private final List<String> rows = new ArrayList<>();

  private static InternalKey key(String row) {
    return new InternalKey(row.getBytes(StandardCharsets.UTF_8), new byte[0], 1, ValueKind.PUT);
  }

  @BeforeEach
  void level() throws IOException {
    cache = new TableCache(dir, 1, new ClockBlockCache(1 << 20), new ReadCounters());
    obsolete = new ObsoleteFiles(dir, cache, null);
    for (int t = 0; t < 3; t++) {
      List<Entry> entries = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        String row = String.format("r%02d", t * 10 + i);
        rows.add(row);
        entries.add(new Entry(key(row), new byte[] {(byte) (t * 10 + i)}));
      }
      long number = t + 1;
      Tables.write(FileNames.table(dir, number), TableOptions.defaults(), entries);
      FileMetadata m =
          new FileMetadata(
              number, 1, 1, 10, 1, 1, entries.get(0).key(), entries.get(9).key(), 0);
      tables.add(TableRef.open(dir, m, cache, obsolete));
    }
  }

  @AfterEach
  void release() {
    tables.forEach(TableRef::release);
    obsolete.close();
    cache.close();
  }

  private static String row(InternalIterator it) {
    return new String(it.key().row(), StandardCharsets.UTF_8);
  }

  @Test
  void forwardAndBackwardOverEveryTableWithOneOpen() throws IOException {
    try (LevelIterator it = new LevelIterator(tables, TableRef::iterator)) {
      List<String> seen = new ArrayList<>();
      for (it.seekToFirst(); it.isValid(); it.next()) {
        seen.add(row(it));
        assertTrue(cache.openReaders() <= 1, "open: " + cache.openReaders());
      }
      assertEquals(rows, seen);

      List<String> back = new ArrayList<>();
      for (it.seekToLast(); it.isValid(); it.prev()) {
        back.add(0, row(it));
        assertTrue(cache.openReaders() <= 1, "open: " + cache.openReaders());
      }
      assertEquals(rows, back);
    }
  }

  @Test
  void seeksLandInTheRightTableAndCrossBoundariesBothWays() throws IOException {
    try (LevelIterator it = new LevelIterator(tables, TableRef::iterator)) {
      it.seek(key("r095")); // between r09 (end of table 1) and r10 (start of table 2)
      assertEquals("r10", row(it));
      it.prev();
      assertEquals("r09", row(it), "back into the first table");
      it.next();
      it.next();
      assertEquals("r11", row(it));

      it.seekForPrev(key("r195"));
      assertEquals("r19", row(it));
      it.next();
      assertEquals("r20", row(it), "on into the third table");

      it.seek(key("r3"));
      assertFalse(it.isValid(), "past the last table");
      it.seekForPrev(key("a"));
      assertFalse(it.isValid(), "before the first table");
      it.seek(key("a"));
      assertEquals("r00", row(it));
    }
  }
}
