package dev.strata.sstable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.strata.sstable.block.BlockCompression;
import dev.strata.sstable.cache.ClockBlockCache;
import dev.strata.sstable.format.SstableFormat;
import dev.strata.sstable.io.BulkBuffers;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.ValueKind;
import dev.strata.sstable.testing.Entry;
import dev.strata.sstable.testing.Seeded;
import dev.strata.sstable.testing.Tables;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bulk pass reads every data block into the same two buffers ({@link BulkBuffers}), so a block
 * lives only until the next is read. These tables mix block sizes (small entries, LZ4-compressed
 * blocks that inflate far beyond their stored size, incompressible blocks larger than anything read
 * before), so the buffers both grow and get reused with leftovers of longer blocks in them; every
 * entry must still come back byte-exact, forward and backward, and the values handed out must stay
 * intact after the pass has moved on.
 */
final class BulkPassTest {
  @TempDir Path dir;

  @Test
  void bulkPass_overBlocksOfVaryingSizeAndCompression_returnsEveryEntry() {
    int[] table = {0};
    Seeded.run("bulkPass", 20, random -> {
      List<Entry> entries = entries(random);
      Path file = dir.resolve(SstableFormat.fileName(++table[0]));
      TableOptions options = TableOptions.defaults()
          .withCompression(BlockCompression.LZ4)
          .withBlockSizeBytes(256 << random.nextInt(5));
      Tables.write(file, options, entries);
      ReadCounters bulk = new ReadCounters();
      // Buffered or direct, through read-ahead windows from none to larger than the table.
      TableReadOptions reads = new TableReadOptions(random.nextBoolean(),
          random.nextBoolean() ? 0 : 1 << (8 + random.nextInt(14)));
      try (TableReader reader = TableReader.open(file, table[0], new ClockBlockCache(1 << 20), new ReadCounters(),
          false, reads)) {
        try (TableIterator it = reader.bulkIterator(bulk)) {
          List<Entry> seen = new ArrayList<>();
          for (it.seekToFirst(); it.isValid(); it.next()) {
            seen.add(new Entry(it.key(), it.value()));
          }
          assertEquals(entries, seen, "forward");
          seen.clear();
          for (it.seekToLast(); it.isValid(); it.prev()) {
            seen.add(new Entry(it.key(), it.value()));
          }
          Collections.reverse(seen);
          assertEquals(entries, seen, "backward");
          int from = random.nextInt(entries.size());
          seen.clear();
          for (it.seek(entries.get(from).key()); it.isValid(); it.next()) {
            seen.add(new Entry(it.key(), it.value()));
          }
          assertEquals(entries.subList(from, entries.size()), seen, "from a seek");
        }
        assertEquals(0, reader.counters().snapshot().dataBlocksRead(), "a bulk pass reads past the cache");
        assertFalse(bulk.snapshot().dataBlocksRead() < reader.properties().dataBlockCount(),
            "every block was read by the pass");
      }
    });
  }

  /**
   * Sorted entries whose values are small, large and compressible (a block that inflates to many
   * times its stored size), or large and random (a stored block larger than the blocks before it).
   */
  private static List<Entry> entries(Random random) {
    int n = 50 + random.nextInt(300);
    List<Entry> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      byte[] row = String.format("row%06d", i).getBytes(StandardCharsets.UTF_8);
      byte[] column = random.nextBoolean() ? new byte[0] : new byte[] {(byte) random.nextInt(256)};
      byte[] value = switch (random.nextInt(10)) {
        case 0 -> filled(random.nextInt(64 << 10), (byte) random.nextInt(256));
        case 1 -> randomBytes(random, random.nextInt(48 << 10));
        default -> randomBytes(random, random.nextInt(120));
      };
      out.add(new Entry(new InternalKey(row, column, 1 + random.nextInt(1000), ValueKind.PUT), value));
    }
    return out;
  }

  private static byte[] filled(int length, byte b) {
    byte[] v = new byte[length];
    Arrays.fill(v, b);
    return v;
  }

  private static byte[] randomBytes(Random random, int length) {
    byte[] v = new byte[length];
    random.nextBytes(v);
    return v;
  }
}
