package dev.strata.engine.version;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.quicktheories.QuickTheory.qt;

import dev.strata.engine.manifest.FileMetadata;
import dev.strata.sstable.ReadCounters;
import dev.strata.sstable.cache.ClockBlockCache;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.ValueKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;
import org.quicktheories.generators.SourceDSL;

/**
 * {@link Version#tableCovering} finds the table of a level whose row range holds the row, as a scan
 * does, whether the rows' 8-byte prefixes tell the tables apart or tie.
 */
final class TableCoveringProperties {
  @TempDir Path dir;

  /** Rows of 0 to 12 bytes over three byte values: prefixes tie often. */
  private static Gen<byte[]> rows() {
    return Generate.byteArrays(Generate.range(0, 12), Generate.pick(List.of((byte) 0, (byte) 7, (byte) -1)));
  }

  @Test
  void tableCovering_isTheTableWhoseRangeHoldsTheRow() {
    TableCache cache = new TableCache(dir, -1, new ClockBlockCache(1 << 20), new ReadCounters());
    ObsoleteFiles obsolete = new ObsoleteFiles(dir, cache, null);
    long[] fileNumber = {1};
    qt().withExamples(500)
        .forAll(SourceDSL.lists().of(rows()).ofSizeBetween(0, 30), rows())
        .checkAssert((bounds, row) -> {
          TreeSet<byte[]> sorted = new TreeSet<>(Arrays::compareUnsigned);
          sorted.addAll(bounds);
          List<byte[]> b = new ArrayList<>(sorted);
          List<List<TableRef>> levels = new ArrayList<>();
          for (int i = 0; i < Version.NUM_LEVELS; i++) {
            levels.add(new ArrayList<>());
          }
          List<TableRef> level1 = levels.get(1);
          for (int i = 0; i + 1 < b.size(); i += 2) { // disjoint ranges [b[i], b[i + 1]]
            long n = fileNumber[0]++;
            FileMetadata m = new FileMetadata(n, 1, 100, 1, n, n, key(b.get(i), n), key(b.get(i + 1), n), 0);
            try {
              level1.add(TableRef.open(dir, m, cache, obsolete));
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          }
          Version v = Version.of(levels);
          TableRef expected = null;
          for (TableRef t : level1) {
            if (Arrays.compareUnsigned(t.metadata().smallest().row(), row) <= 0
                && Arrays.compareUnsigned(t.metadata().largest().row(), row) >= 0) {
              expected = t;
            }
          }
          assertSame(expected, v.tableCovering(1, row));
          assertSame(null, v.tableCovering(2, row), "an empty level");
          v.release();
        });
    obsolete.close();
    cache.close();
  }

  private static InternalKey key(byte[] row, long sequence) {
    return new InternalKey(row, new byte[0], sequence, ValueKind.PUT);
  }
}
