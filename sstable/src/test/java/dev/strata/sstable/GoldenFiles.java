package dev.strata.sstable;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.strata.sstable.block.BlockCompression;
import dev.strata.sstable.filter.FilterKind;
import dev.strata.sstable.filter.FilterType;
import dev.strata.sstable.format.SstableFormat;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.ValueKind;
import dev.strata.sstable.testing.Entry;
import dev.strata.sstable.testing.Tables;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Generates the golden tables of the current format under {@code src/test/resources/golden/vN/}:
 * tiny tables whose bytes {@link GoldenTableTest} checks against the current reader and writer, so
 * the format cannot drift unnoticed. A format change adds {@code vN/} with a new generator run and
 * keeps the older directories, which the reader must still read ({@code v1/} was written by format
 * 1's writer; {@code v2/} adds tables with a row-prefix filter; {@code v3/} holds the same tables with
 * a two-level index; {@code v4/} the same tables whose filter payloads end with their kind, and one of Ribbon chunks;
 * {@code v5/} the same tables with a compact index, and one of many rows; {@code v6/} the same
 * tables with their filter chunks together after the data blocks).
 *
 * <pre>
 * mvn -q -pl sstable test-compile dependency:build-classpath -Dmdep.outputFile=/tmp/sst-cp.txt -Dmdep.includeScope=test
 * java -cp "sstable/target/test-classes:sstable/target/classes:$(cat /tmp/sst-cp.txt)" \
 *     dev.strata.sstable.GoldenFiles sstable/src/test/resources/golden/v6
 * </pre>
 *
 * <p>Not thread-safe (a main program).
 */
public final class GoldenFiles {
  /** The golden tables: file name, options, and the cells they hold. */
  record Golden(String fileName, TableOptions options, List<Entry> entries) {}

  private GoldenFiles() {}

  /** Every golden table of format {@code version} (1 or {@link SstableFormat#VERSION_CURRENT}). */
  static List<Golden> goldens(int version) {
    List<Golden> out = new ArrayList<>(goldensV1());
    if (version >= 2) {
      // Row-prefix filters: ROW with 3-byte prefixes, and ROWCOL in tiny chunks with 2-byte ones.
      out.add(new Golden("000004.sst", TableOptions.defaults().withPrefixLength(3), cells()));
      out.add(new Golden("000005.sst",
          new TableOptions(64, FilterType.ROWCOL, 10, 64, BlockCompression.LZ4, 2), cells()));
    }
    if (version >= 4) {
      // Ribbon filter chunks (kind 2), tiny ones, ROWCOL with a row tombstone (always Bloom).
      out.add(new Golden("000006.sst", new TableOptions(64, FilterType.ROWCOL, 10, 64,
          BlockCompression.LZ4, 2, FilterKind.RIBBON), cells()));
    }
    if (version >= 5) {
      // A compact index with restart intervals of more than one entry, implied and stored offsets
      // (filter chunks between data blocks, in version 5) and cell keys: many rows in small blocks
      // and chunks.
      out.add(new Golden("000007.sst", new TableOptions(512, FilterType.ROW, 10, 64, BlockCompression.NONE),
          manyRows()));
    }
    return out;
  }

  /** 400 rows of one cell each, two versions of every tenth, for the compact index's golden table. */
  static List<Entry> manyRows() {
    List<Entry> out = new ArrayList<>();
    for (int i = 0; i < 400; i++) {
      String row = String.format("key%05d", i * 7);
      out.add(put(row, "", 1000 + i, "v" + i));
      if (i % 10 == 0) {
        out.add(put(row, "", 10 + i, "old" + i));
      }
    }
    out.sort((x, y) -> InternalKey.compare(x.key(), y.key()));
    return out;
  }

  /** The golden tables of v1, kept in every later version's set with their v1 options. */
  private static List<Golden> goldensV1() {
    return List.of(
        // Every block type: ROWCOL with a row tombstone, LZ4, tiny blocks and chunks.
        new Golden("000001.sst", new TableOptions(64, FilterType.ROWCOL, 10, 64, BlockCompression.LZ4), cells()),
        // The defaults of the engine: ROW filter, 4 KiB blocks, LZ4 (one block: stored raw if LZ4 does not pay).
        new Golden("000002.sst", TableOptions.defaults(), cells()),
        // No filter, no compression.
        new Golden("000003.sst", new TableOptions(128, FilterType.NONE, 10, 64, BlockCompression.NONE), cells()));
  }

  /** The cells of the golden tables: puts, a cell tombstone, a row tombstone, binary bytes, versions. */
  static List<Entry> cells() {
    List<Entry> out = new ArrayList<>();
    out.add(put("apple", "", 3, "fruit"));
    out.add(put("apple", "color", 9, "red and green and red again"));
    out.add(put("apple", "color", 4, "red"));
    out.add(new Entry(new InternalKey(b("apple"), b("size"), 5, ValueKind.DELETE), new byte[0]));
    out.add(new Entry(new InternalKey(b("banana"), new byte[0], 12, ValueKind.DELETE_ROW), new byte[0]));
    out.add(put("banana", "color", 7, "yellow yellow yellow yellow yellow"));
    out.add(new Entry(new InternalKey(new byte[] {(byte) 0xc3, 0x00, (byte) 0xff}, new byte[] {0x00}, 1,
        ValueKind.PUT), new byte[] {0x00, 0x01, 0x02, (byte) 0xfe, (byte) 0xff}));
    for (int i = 0; i < 20; i++) {
      out.add(put(String.format("row%02d", i), "q", 100 + i, "value number " + i));
    }
    out.sort((x, y) -> InternalKey.compare(x.key(), y.key()));
    return out;
  }

  private static Entry put(String row, String column, long seq, String value) {
    return new Entry(new InternalKey(b(row), b(column), seq, ValueKind.PUT), b(value));
  }

  private static byte[] b(String s) {
    return s.getBytes(UTF_8);
  }

  /**
   * Writes every golden table of the current format into {@code args[0]} (default {@code
   * sstable/src/test/resources/golden/v<current>}).
   */
  public static void main(String[] args) throws IOException {
    Path dir = Path.of(args.length > 0 ? args[0]
        : "sstable/src/test/resources/golden/v" + SstableFormat.VERSION_CURRENT);
    Files.createDirectories(dir);
    for (Golden g : goldens(SstableFormat.VERSION_CURRENT)) {
      Path file = dir.resolve(g.fileName());
      Files.deleteIfExists(file);
      TableMetadata meta = Tables.write(file, g.options(), g.entries());
      System.out.println(file + ": " + meta.fileSize() + " bytes, " + meta.entryCount() + " entries");
    }
  }
}
