package dev.strata.sstable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.strata.checksum.Checksums;
import dev.strata.sstable.block.BlockCompression;
import dev.strata.sstable.block.BlockType;
import dev.strata.sstable.cache.ClockBlockCache;
import dev.strata.sstable.filter.FilterType;
import dev.strata.sstable.format.CorruptTableException;
import dev.strata.sstable.format.FormatVersionException;
import dev.strata.sstable.format.SstableFormat;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.testing.CorruptFiles;
import dev.strata.sstable.testing.Entry;
import dev.strata.sstable.testing.RandomCells;
import dev.strata.sstable.testing.TableModel;
import dev.strata.sstable.testing.Tables;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damage in every region of a table (footer, properties, index, filter index, every data block,
 * every filter chunk, the row-tombstone filter), by a flipped bit, zeroed bytes or truncation at
 * every region boundary, gives {@link CorruptTableException} naming the file, or for a filter a
 * counted fall-back to "maybe present"; never wrong data and never another exception type.
 */
final class CorruptionTest {
  @TempDir Path dir;

  private Path original;
  private List<Entry> entries;
  private TableModel model;
  private TableRegions regions;

  @BeforeEach
  void writeTable() throws IOException {
    entries = new RandomCells(new Random(7)).tombstones(0.3, 0.1).maxValueBytes(40).entries(400);
    model = new TableModel(entries);
    original = dir.resolve("000001.sst");
    TableOptions options = new TableOptions(256, FilterType.ROWCOL, 10, 64, BlockCompression.LZ4);
    Tables.write(original, options, entries);
    regions = TableRegions.of(original);
    Set<BlockType> types = new HashSet<>();
    regions.regions().forEach(r -> types.add(r.type()));
    // Every type but the index blocks of versions 1 to 4, whose damage the golden tables' cover.
    Set<BlockType> written = EnumSet.allOf(BlockType.class);
    written.removeAll(List.of(BlockType.INDEX, BlockType.INDEX_PARTITION));
    assertTrue(types.containsAll(written), "every block type a table holds: " + types);
    assertTrue(regions.regions().stream().filter(r -> r.type() == BlockType.FILTER_CHUNK).count() > 3);
  }

  @Test
  void flippedBit_inEveryRegion_isDetectedOrHarmless() throws IOException {
    int n = 0;
    for (TableRegions.Region r : regions.regions()) {
      long[] offsets = {r.offset(), r.offset() + r.length() / 2, r.end() - 6, r.end() - 5, r.end() - 1};
      for (long off : offsets) {
        Path copy = CorruptFiles.copy(original, dir.resolve(String.format("%06d.sst", 100 + n++)));
        CorruptFiles.flipBit(copy, off, (int) (off % 8));
        expectDetected(copy, r, "bit flip at " + off + " in " + r.name());
      }
    }
  }

  /**
   * An open that pins the filters decodes each chunk where it lies in the stretch it read: a
   * flipped bit anywhere in a chunk is counted there, and the table still answers every Get.
   */
  @Test
  void flippedBit_inAFilterChunk_isCountedByAPinningOpen() throws Exception {
    int n = 0;
    for (TableRegions.Region r : regions.regions()) {
      if (r.type() != BlockType.FILTER_CHUNK) {
        continue;
      }
      for (long off : new long[] {r.offset(), r.offset() + r.length() / 2, r.end() - 1}) {
        Path copy = CorruptFiles.copy(original, dir.resolve(String.format("%06d.sst", 300 + n++)));
        CorruptFiles.flipBit(copy, off, (int) (off % 8));
        String what = "bit flip at " + off + " in " + r.name();
        ReadCounters counters = new ReadCounters();
        try (TableReader reader = TableReader.open(copy, 1, new ClockBlockCache(1 << 20), counters, true)) {
          assertEquals(1, counters.snapshot().filterChunksCorrupt(), what + ": counted as the open pinned it");
          for (Entry e : entries) {
            TableRoundTripProperties.checkGet(model, reader, e.key().row(), e.key().column(), InternalKey.MAX_SEQUENCE);
            TableRoundTripProperties.checkGet(model, reader, e.key().row(), new byte[] {9, 9, 9}, InternalKey.MAX_SEQUENCE);
          }
        }
      }
    }
    assertTrue(n >= 12, n + " flips");
  }

  @Test
  void zeroedBytes_inEveryRegion_areDetected() throws IOException {
    int n = 0;
    for (TableRegions.Region r : regions.regions()) {
      Path copy = CorruptFiles.copy(original, dir.resolve(String.format("%06d.sst", 500 + n++)));
      CorruptFiles.zero(copy, r.offset(), (int) Math.min(16, r.length()));
      expectDetected(copy, r, "zeroed head of " + r.name());
      copy = CorruptFiles.copy(original, dir.resolve(String.format("%06d.sst", 500 + n++)));
      CorruptFiles.zero(copy, r.offset(), (int) r.length());
      expectDetected(copy, r, "zeroed " + r.name());
    }
  }

  @Test
  void truncation_atEveryRegionBoundary_failsOpen() throws IOException {
    Set<Long> cuts = new HashSet<>(List.of(0L, 1L, regions.fileSize() - 1, regions.fileSize() - 8));
    for (TableRegions.Region r : regions.regions()) {
      cuts.add(r.offset());
      cuts.add(r.end() - 1);
      cuts.add(r.end());
    }
    cuts.remove(regions.fileSize());
    int n = 0;
    for (long cut : cuts) {
      Path copy = CorruptFiles.copy(original, dir.resolve(String.format("%06d.sst", 900 + n++)));
      CorruptFiles.truncate(copy, cut);
      CorruptTableException e = assertThrows(CorruptTableException.class,
          () -> TableReader.open(copy, 1, new ClockBlockCache(1 << 20)).close(), "truncated at " + cut);
      assertNamesFile(e, copy);
    }
  }

  @Test
  void newerFormatVersion_isAVersionError() throws IOException {
    Path copy = CorruptFiles.copy(original, dir.resolve("000002.sst"));
    try (FileChannel ch = FileChannel.open(copy, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      long footer = ch.size() - SstableFormat.FOOTER_BYTES;
      ByteBuffer b = ByteBuffer.allocate(SstableFormat.FOOTER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
      ch.read(b, footer);
      b.putInt(SstableFormat.FOOTER_VERSION_OFFSET, SstableFormat.VERSION_CURRENT + 1);
      b.putInt(SstableFormat.FOOTER_CRC_OFFSET, Checksums.maskedCrc32c(b.array(), 0, SstableFormat.FOOTER_CRC_OFFSET));
      b.rewind();
      ch.write(b, footer);
    }
    FormatVersionException e = assertThrows(FormatVersionException.class,
        () -> TableReader.open(copy, 2, new ClockBlockCache(0)));
    assertEquals(SstableFormat.VERSION_CURRENT + 1, e.version());
    assertTrue(e.getMessage().contains("too new"), e.getMessage());
  }

  /**
   * Opens {@code file}, reads every entry by iteration and by Get, then verifies it. Any exception must
   * be a {@link CorruptTableException} naming the file; data read must be right. Damage to a block
   * the reader needs must be reported; damage to a filter is counted and reported by verify only.
   */
  private void expectDetected(Path file, TableRegions.Region region, String what) throws IOException {
    boolean isFilter = region.type() == BlockType.FILTER_CHUNK || region.type() == BlockType.ROW_TOMBSTONE_FILTER;
    boolean detected = false;
    ReadCounters counters = new ReadCounters();
    try (TableReader reader = TableReader.open(file, 1, new ClockBlockCache(1 << 20), counters)) {
      try (TableIterator it = reader.iterator()) {
        int i = 0;
        for (it.seekToFirst(); it.isValid(); it.next(), i++) {
          assertEquals(entries.get(i).key(), it.key(), what);
          assertArrayEquals(entries.get(i).value(), it.value(), what);
        }
        assertEquals(entries.size(), i, what);
      } catch (CorruptTableException e) {
        assertNamesFile(e, file);
        detected = true;
      }
      try {
        for (Entry e : entries) {
          TableRoundTripProperties.checkGet(model, reader, e.key().row(), e.key().column(), InternalKey.MAX_SEQUENCE);
          TableRoundTripProperties.checkGet(model, reader, e.key().row(), new byte[] {9, 9, 9}, InternalKey.MAX_SEQUENCE);
        }
      } catch (CorruptTableException e) {
        assertNamesFile(e, file);
        detected = true;
      }
      if (isFilter) {
        assertTrue(!detected, what + ": a damaged filter must not fail reads");
        assertTrue(counters.snapshot().filterChunksCorrupt() > 0, what + ": damaged filter counted");
      }
      try {
        reader.verifyChecksums();
      } catch (CorruptTableException e) {
        assertNamesFile(e, file);
        detected = true;
      }
    } catch (CorruptTableException e) {
      assertNamesFile(e, file);
      detected = true;
    } catch (Exception e) {
      fail(what + ": " + e, e);
    }
    assertTrue(detected, what + ": not detected");
  }

  private static void assertNamesFile(CorruptTableException e, Path file) {
    assertNotNull(e.getMessage());
    assertEquals(file, e.file());
    assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
    assertTrue(e.getMessage().contains("offset"), e.getMessage());
  }
}
