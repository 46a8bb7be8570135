package dev.strata.sstable;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.strata.checksum.Checksums;
import dev.strata.sstable.TableRegions.Region;
import dev.strata.sstable.cache.ClockBlockCache;
import dev.strata.sstable.filter.FilterProbe;
import dev.strata.sstable.format.Bytes;
import dev.strata.sstable.format.CorruptTableException;
import dev.strata.sstable.format.FormatVersionException;
import dev.strata.sstable.format.SstableFormat;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.testing.Entry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;

/**
 * The table reader against damage that passes the checksums: one block (or the footer) of a
 * golden table is overwritten from a fuzzed offset with fuzzed bytes, optionally with a fuzzed
 * block-type byte, and its checksum is recomputed, so every parser behind the checksum (LZ4,
 * block entries and restart points, index, filter index and chunks, properties, footer) sees
 * bytes it cannot trust. Opening the table and reading all of it (scan, Gets, checksum
 * verification) must succeed or throw {@link CorruptTableException} or {@link
 * FormatVersionException}; any other exception, assertion error or hang is a bug.
 *
 * <p>Checksum-failing damage is covered exhaustively by {@link CorruptionTest}. Under {@code mvn
 * verify} the target runs its checked-in inputs; {@code JAZZER_FUZZ=1} fuzzes (see README).
 */
final class TableFormatFuzzTest {
  private static final List<Base> BASES = loadBases();

  @TempDir Path dir;

  /** A golden table: its bytes, its block regions and the cells whose Gets are tried. */
  private record Base(byte[] bytes, List<Region> regions, List<Entry> entries) {}

  @FuzzTest
  void open_blockRewrittenBehindValidChecksum_readsOrReportsCorruption(FuzzedDataProvider data)
      throws IOException {
    Base base = BASES.get(data.consumeInt(0, BASES.size() - 1));
    Region region = base.regions().get(data.consumeInt(0, base.regions().size() - 1));
    byte[] bytes = base.bytes().clone();
    if (region.type() == null) {
      rewriteFooter(bytes, (int) region.offset(), data);
    } else {
      rewriteBlock(bytes, (int) region.offset(), (int) region.length(), data);
    }
    Path file = dir.resolve("000001.sst");
    Files.write(file, bytes);
    try {
      readEverything(file, base.entries(), data.consumeRemainingAsBytes());
    } catch (CorruptTableException | FormatVersionException reported) {
      // The documented outcome for damage the reader can see.
    }
  }

  /** Overwrites payload bytes from a fuzzed offset (and maybe the type byte), then fixes the CRC. */
  private static void rewriteBlock(byte[] bytes, int offset, int storedLength, FuzzedDataProvider data) {
    int payload = storedLength - SstableFormat.BLOCK_TRAILER_BYTES;
    if (payload > 0) {
      overlay(bytes, offset, payload, data);
    }
    if (data.consumeBoolean()) {
      bytes[offset + payload] = data.consumeByte();
    }
    int crc = Checksums.maskedCrc32c(bytes, offset, payload, bytes[offset + payload]);
    Bytes.putU32(bytes, offset + payload + 1, crc);
  }

  /** Overwrites footer bytes before its CRC from a fuzzed offset, then fixes the CRC. */
  private static void rewriteFooter(byte[] bytes, int offset, FuzzedDataProvider data) {
    int covered = SstableFormat.FOOTER_CRC_OFFSET;
    overlay(bytes, offset, covered, data);
    Bytes.putU32(bytes, offset + covered, Checksums.maskedCrc32c(bytes, offset, covered));
  }

  /** Fuzzed bytes over {@code bytes[offset, offset + length)} from a fuzzed point, in place. */
  private static void overlay(byte[] bytes, int offset, int length, FuzzedDataProvider data) {
    int from = data.consumeInt(0, length - 1);
    byte[] patch = data.consumeBytes(length - from);
    System.arraycopy(patch, 0, bytes, offset + from, patch.length);
  }

  private static void readEverything(Path file, List<Entry> entries, byte[] extraKey)
      throws IOException {
    // A fresh cache: blocks are cached by file number, and every run reuses the number.
    try (TableReader t = TableReader.open(file, 1, new ClockBlockCache(1 << 16))) {
      try (TableIterator it = t.iterator()) {
        for (it.seekToFirst(); it.isValid(); it.next()) {
          it.value();
        }
      }
      for (Entry e : entries) {
        t.get(FilterProbe.of(e.key().row(), e.key().column()), InternalKey.MAX_SEQUENCE);
      }
      t.get(FilterProbe.of(extraKey, new byte[0]), InternalKey.MAX_SEQUENCE);
      t.verifyChecksums();
      t.layout().dataBlocks();
      t.layout().filterChunks();
    }
  }

  private static List<Base> loadBases() {
    List<Base> bases = new ArrayList<>();
    try {
      for (int v = SstableFormat.VERSION_START; v <= SstableFormat.VERSION_CURRENT; v++) {
        for (GoldenFiles.Golden g : GoldenFiles.goldens(v)) {
          String name = "/golden/v" + v + "/" + g.fileName();
          Path file = Path.of(TableFormatFuzzTest.class.getResource(name).toURI());
          List<Region> blocks = TableRegions.of(file).regions();
          bases.add(new Base(Files.readAllBytes(file), blocks, g.entries()));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
    return List.copyOf(bases);
  }
}
