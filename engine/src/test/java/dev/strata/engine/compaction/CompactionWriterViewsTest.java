package dev.strata.engine.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.strata.engine.fs.FileLayer;
import dev.strata.engine.fs.FileNames;
import dev.strata.engine.manifest.FileMetadata;
import dev.strata.engine.read.InternalIterator;
import dev.strata.engine.read.MergingIterator;
import dev.strata.engine.version.ObsoleteFiles;
import dev.strata.engine.version.TableCache;
import dev.strata.engine.version.TableRef;
import dev.strata.sstable.ReadCounters;
import dev.strata.sstable.TableIterator;
import dev.strata.sstable.TableOptions;
import dev.strata.sstable.TableReader;
import dev.strata.sstable.block.BlockCompression;
import dev.strata.sstable.cache.ClockBlockCache;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.ValueKind;
import dev.strata.sstable.testing.Entry;
import dev.strata.sstable.testing.Seeded;
import dev.strata.sstable.testing.Tables;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compaction merges its inputs as views of their blocks (encoded keys compared in place, values
 * written from the blocks' bytes, the blocks read into buffers reused block after block) rather than
 * as decoded objects. Its output must be exactly what the rules say for those entries as objects:
 * here the rules are applied to the decoded entries by a plain model (each cell's newest entry per
 * snapshot stripe, unless a newer row tombstone of the stripe hides it; tombstones dropped only at
 * the bottom in the oldest stripe), and the tables written must hold the model's entries byte for
 * byte, puts, deletes and row tombstones alike.
 */
final class CompactionWriterViewsTest {
  @TempDir Path dir;

  @Test
  void mergeFromBlockViews_writesExactlyTheEntriesTheRulesKeep() {
    int[] trial = {0};
    Seeded.run("compactionViews", 25, random -> {
      Path in = Files.createDirectory(dir.resolve("in" + trial[0]));
      Path out = Files.createDirectory(dir.resolve("out" + trial[0]++));
      List<List<Entry>> inputs = inputs(random);
      long[] snapshots = random.longs(random.nextInt(4), 1, 400).sorted().distinct().toArray();
      SnapshotStripes stripes = SnapshotStripes.of(snapshots);
      int parity = random.nextInt(3); // 2: no row is bottommost
      Predicate<byte[]> bottommost = row -> parity < 2 && row.length % 2 == parity;
      TableOptions options = TableOptions.defaults()
          .withCompression(BlockCompression.LZ4)
          .withBlockSizeBytes(128 << random.nextInt(4));
      TableCache cache = new TableCache(in, TableCache.UNLIMITED, new ClockBlockCache(1 << 16), new ReadCounters());
      ObsoleteFiles obsolete = new ObsoleteFiles(in, cache, null);
      List<TableRef> refs = new ArrayList<>();
      List<FileMetadata> written;
      try {
        for (int i = 0; i < inputs.size(); i++) {
          List<Entry> entries = inputs.get(i);
          Tables.write(FileNames.table(in, i + 1), options, entries);
          refs.add(TableRef.open(in, new FileMetadata(i + 1, 0, 1, entries.size(), 1, 1,
              entries.get(0).key(), entries.get(entries.size() - 1).key(), 0), cache, obsolete));
        }
        ReadCounters bulk = new ReadCounters();
        List<InternalIterator> sources = new ArrayList<>();
        for (TableRef r : refs) {
          sources.add(r.bulkIterator(bulk));
        }
        AtomicLong numbers = new AtomicLong(100);
        try (MergingIterator merged = new MergingIterator(sources)) {
          merged.seekToFirst();
          written = new CompactionWriter(out, FileLayer.real(), 1, options,
              OutputCuts.atSize(1 + random.nextInt(8 << 10)), numbers::incrementAndGet, bottommost, stripes,
              1 << 20, () -> false).write(merged);
        }
      } finally {
        refs.forEach(TableRef::release);
        obsolete.close();
        cache.close();
      }
      List<Entry> all = new ArrayList<>();
      inputs.forEach(all::addAll);
      all.sort((a, b) -> InternalKey.compare(a.key(), b.key()));
      assertEquals(kept(all, stripes, bottommost), read(out, written),
          "snapshots " + Arrays.toString(snapshots) + ", bottommost parity " + parity);
    });
  }

  /** The model: what the rules keep of {@code sorted}, decided on decoded entries. */
  private static List<Entry> kept(List<Entry> sorted, SnapshotStripes stripes, Predicate<byte[]> bottommost) {
    List<Entry> out = new ArrayList<>();
    Map<Integer, Long> rowTombstones = new HashMap<>();
    byte[] row = null;
    byte[] column = null;
    int previousStripe = -1;
    int previousRowTombstoneStripe = -1;
    for (Entry e : sorted) {
      InternalKey k = e.key();
      if (row == null || !Arrays.equals(row, k.row())) {
        rowTombstones.clear();
        column = null;
      }
      if (row == null || column == null || !Arrays.equals(row, k.row()) || !Arrays.equals(column, k.column())) {
        previousStripe = -1;
        previousRowTombstoneStripe = -1;
      }
      row = k.row();
      column = k.column();
      boolean drop = bottommost.test(row);
      int stripe = stripes.of(k.sequence());
      boolean keep;
      if (k.kind() == ValueKind.DELETE_ROW) {
        keep = stripe != previousRowTombstoneStripe && !(drop && stripes.isOldest(stripe));
        if (stripe != previousRowTombstoneStripe) {
          rowTombstones.put(stripe, k.sequence());
          previousRowTombstoneStripe = stripe;
        }
      } else {
        Long t = rowTombstones.get(stripe);
        keep = stripe != previousStripe && (t == null || t < k.sequence())
            && !(drop && stripes.isOldest(stripe) && k.kind().isTombstone());
      }
      if (keep) {
        out.add(e);
      }
      previousStripe = stripe;
    }
    return out;
  }

  private static List<Entry> read(Path out, List<FileMetadata> written) throws Exception {
    List<Entry> seen = new ArrayList<>();
    for (FileMetadata m : written) {
      try (TableReader r = TableReader.open(FileNames.table(out, m.fileNumber()), m.fileNumber(),
              new ClockBlockCache(1 << 16));
          TableIterator it = r.iterator()) {
        for (it.seekToFirst(); it.isValid(); it.next()) {
          seen.add(new Entry(it.key(), it.value()));
        }
      }
    }
    return seen;
  }

  /**
   * Two to four sorted inputs sharing rows and cells, with unique sequence numbers: puts of values
   * from empty to several blocks long, deletes, and row tombstones (under the empty column).
   */
  private static List<List<Entry>> inputs(Random random) {
    int n = 2 + random.nextInt(3);
    List<TreeMap<InternalKey, byte[]>> tables = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      tables.add(new TreeMap<>(InternalKey.ORDER));
    }
    TreeSet<Long> sequences = new TreeSet<>();
    int entries = 20 + random.nextInt(400);
    for (int i = 0; i < entries; i++) {
      byte[] row = ("r" + random.nextInt(30) + (random.nextBoolean() ? "x" : "")).getBytes();
      long sequence;
      do {
        sequence = 1 + random.nextInt(500);
      } while (!sequences.add(sequence));
      int kind = random.nextInt(10);
      InternalKey key;
      byte[] value = new byte[0];
      if (kind == 0) {
        key = new InternalKey(row, new byte[0], sequence, ValueKind.DELETE_ROW);
      } else {
        byte[] column = random.nextInt(4) == 0 ? new byte[0] : ("c" + random.nextInt(4)).getBytes();
        if (kind == 1) {
          key = new InternalKey(row, column, sequence, ValueKind.DELETE);
        } else {
          key = new InternalKey(row, column, sequence, ValueKind.PUT);
          value = new byte[random.nextInt(20) == 0 ? random.nextInt(3000) : random.nextInt(60)];
          if (random.nextBoolean()) {
            random.nextBytes(value);
          } else {
            Arrays.fill(value, (byte) random.nextInt(256));
          }
        }
      }
      tables.get(random.nextInt(n)).put(key, value);
    }
    List<List<Entry>> out = new ArrayList<>();
    for (TreeMap<InternalKey, byte[]> t : tables) {
      if (!t.isEmpty()) {
        List<Entry> list = new ArrayList<>();
        t.forEach((k, v) -> list.add(new Entry(k, v)));
        out.add(list);
      }
    }
    return out;
  }
}
