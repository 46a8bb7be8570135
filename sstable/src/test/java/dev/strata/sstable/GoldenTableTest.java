package dev.strata.sstable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.strata.sstable.cache.ClockBlockCache;
import dev.strata.sstable.testing.Entry;
import dev.strata.sstable.testing.TableModel;
import dev.strata.sstable.testing.Tables;
import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The golden v1 tables (written by {@link GoldenFiles}) still read back cell by cell with the current
 * reader, and the current writer still produces them byte for byte.
 */
final class GoldenTableTest {
  @TempDir Path dir;

  private static Path golden(String name) throws URISyntaxException {
    URL url = GoldenTableTest.class.getResource("/golden/v1/" + name);
    assertNotNull(url, "golden file " + name + " missing: run GoldenFiles.main");
    return Path.of(url.toURI());
  }

  @Test
  void goldenTables_readBack() throws Exception {
    long number = 1;
    for (GoldenFiles.Golden g : GoldenFiles.goldens()) {
      Path file = golden(g.fileName());
      try (TableReader t = TableReader.open(file, number++, new ClockBlockCache(1 << 20))) {
        t.verifyChecksums();
        assertEquals(g.options().filterType(), t.properties().filterType());
        assertEquals(1, t.properties().formatVersion());
        try (TableIterator it = t.iterator()) {
          int i = 0;
          for (it.seekToFirst(); it.isValid(); it.next(), i++) {
            assertEquals(g.entries().get(i).key(), it.key());
            assertArrayEquals(g.entries().get(i).value(), it.value());
          }
          assertEquals(g.entries().size(), i);
        }
        TableModel model = new TableModel(g.entries());
        for (Entry e : g.entries()) {
          TableRoundTripProperties.checkGet(model, t, e.key().row(), e.key().column(), InternalKey.MAX_SEQUENCE);
          TableRoundTripProperties.checkGet(model, t, e.key().row(), new byte[] {1}, e.key().sequence());
        }
      }
    }
  }

  @Test
  void writer_reproducesTheGoldenBytes() throws Exception {
    for (GoldenFiles.Golden g : GoldenFiles.goldens()) {
      Path fresh = dir.resolve(g.fileName());
      Tables.write(fresh, g.options(), g.entries());
      assertArrayEquals(Files.readAllBytes(golden(g.fileName())), Files.readAllBytes(fresh),
          g.fileName() + ": the writer's bytes drifted from format v1");
    }
  }

  @Test
  void goldenFile_hasEveryBlockType() throws IOException, URISyntaxException {
    TableRegions regions = TableRegions.of(golden("000001.sst"));
    for (BlockType type : BlockType.values()) {
      assertEquals(true, regions.regions().stream().anyMatch(r -> r.type() == type), type.toString());
    }
  }
}
