package dev.strata.sstable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.sstable.block.Block;
import dev.strata.sstable.block.BlockType;
import dev.strata.sstable.block.IndexEntry;
import dev.strata.sstable.cache.ClockBlockCache;
import dev.strata.sstable.format.SstableFormat;
import dev.strata.sstable.key.InternalKey;
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
 * The golden tables of every format version (written by {@link GoldenFiles}) still read back cell by
 * cell with the current reader, and the current writer still produces the current version's byte
 * for byte. A version-1 table has no prefix filter, so a prefix scan never skips it.
 */
final class GoldenTableTest {
  @TempDir Path dir;

  private static Path golden(String name) throws URISyntaxException {
    return golden(1, name);
  }

  /** Golden table {@code name} of format {@code version}. */
  static Path golden(int version, String name) throws URISyntaxException {
    URL url = GoldenTableTest.class.getResource("/golden/v" + version + "/" + name);
    assertNotNull(url, "golden file " + name + " missing: run GoldenFiles.main");
    return Path.of(url.toURI());
  }

  @Test
  void goldenTables_readBack() throws Exception {
    long number = 1;
    for (int version = SstableFormat.VERSION_START; version <= SstableFormat.VERSION_CURRENT; version++) {
      for (GoldenFiles.Golden g : GoldenFiles.goldens(version)) {
        Path file = golden(version, g.fileName());
        try (TableReader t = TableReader.open(file, number++, new ClockBlockCache(1 << 20))) {
          t.verifyChecksums();
          assertEquals(g.options().filterType(), t.properties().filterType());
          assertEquals(version, t.properties().formatVersion());
          assertEquals(version == 1 ? 0 : g.options().prefixLength(), t.properties().prefixLength());
          for (Entry e : g.entries()) {
            byte[] row = e.key().row();
            for (int n = 0; n <= row.length; n++) {
              assertEquals(false, t.prefixFilterExcludes(java.util.Arrays.copyOf(row, n)),
                  "a row's own prefix is never excluded");
            }
          }
          // "bxx" sorts inside every table's row range, between "banana" and "row00", and no row has it.
          byte[] absent = "bxx".getBytes(java.nio.charset.StandardCharsets.UTF_8);
          assertEquals(t.properties().prefixLength() > 0, t.prefixFilterExcludes(absent),
              "only a table with a prefix filter can skip an absent prefix");
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
  }

  @Test
  void writer_reproducesTheGoldenBytes() throws Exception {
    int current = SstableFormat.VERSION_CURRENT;
    for (GoldenFiles.Golden g : GoldenFiles.goldens(current)) {
      Path fresh = dir.resolve(g.fileName());
      Tables.write(fresh, g.options(), g.entries());
      assertArrayEquals(Files.readAllBytes(golden(current, g.fileName())), Files.readAllBytes(fresh),
          g.fileName() + ": the writer's bytes drifted from format v" + current);
    }
  }

  /**
   * The compact index's golden table holds both key forms and implied offsets in every version
   * from 5; offsets stored where the file does not imply them (a filter chunk between two data
   * blocks) occur in version 5's, since version 6 puts the chunks after the data blocks.
   */
  @Test
  void compactGolden_holdsBothKeyForms_andStoredAndImpliedOffsets() throws Exception {
    for (int version = SstableFormat.VERSION_COMPACT_INDEX; version <= SstableFormat.VERSION_CURRENT; version++) {
      int[] c = compactIndexCounts(golden(version, "000007.sst"));
      int cellKeys = c[0];
      int internalKeys = c[1];
      int gaps = c[2];
      int implied = c[3];
      int restarts = c[4];
      String counts = "v" + version + ": " + cellKeys + " cell keys, " + internalKeys + " internal keys, "
          + gaps + " gaps, " + implied + " implied, " + restarts + " restarts";
      assertTrue(cellKeys > 0 && internalKeys > 0 && implied > restarts, counts);
      assertEquals(version < SstableFormat.VERSION_FILTER_REGION, gaps > 0, counts);
    }
  }

  /** Cell-form keys, internal-form keys, stored offsets, implied offsets and restarts of a compact index. */
  private static int[] compactIndexCounts(Path file) throws IOException {
    TableRegions regions = TableRegions.of(file);
    byte[] all = Files.readAllBytes(file);
    int cellKeys = 0;
    int internalKeys = 0;
    int gaps = 0;
    int implied = 0;
    int restarts = 0;
    for (TableRegions.Region r : regions.regions()) {
      if (r.type() != BlockType.COMPACT_INDEX_PARTITION) {
        continue;
      }
      int length = (int) r.length() - SstableFormat.BLOCK_TRAILER_BYTES;
      Block p = Block.parse(java.util.Arrays.copyOfRange(all, (int) r.offset(), (int) r.offset() + length), length,
          BlockType.COMPACT_INDEX_PARTITION, Path.of("000007.sst"), r.offset());
      restarts += p.restartCount;
      IndexEntry e = new IndexEntry();
      long previousEnd = -1;
      for (e.first(p); !e.pastEnd(p); e.next(p)) {
        if (e.isCellForm()) {
          cellKeys++;
        } else {
          internalKeys++;
        }
        if (previousEnd >= 0 && e.dataOffset() != previousEnd) {
          gaps++; // stored: the file does not imply it
        } else if (previousEnd >= 0) {
          implied++;
        }
        previousEnd = e.dataOffset() + e.dataLength() + SstableFormat.BLOCK_TRAILER_BYTES;
      }
    }
    return new int[] {cellKeys, internalKeys, gaps, implied, restarts};
  }

  @Test
  void goldenFile_hasEveryBlockType() throws IOException, URISyntaxException {
    TableRegions regions = TableRegions.of(golden(SstableFormat.VERSION_CURRENT, "000001.sst"));
    for (BlockType type : BlockType.values()) {
      if (type == BlockType.INDEX || type == BlockType.INDEX_PARTITION) {
        continue; // the index blocks of versions 1 to 4
      }
      assertEquals(true, regions.regions().stream().anyMatch(r -> r.type() == type), type.toString());
    }
  }
}
