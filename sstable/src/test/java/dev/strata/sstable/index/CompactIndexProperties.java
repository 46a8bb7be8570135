package dev.strata.sstable.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import dev.strata.sstable.block.Block;
import dev.strata.sstable.block.BlockHandle;
import dev.strata.sstable.block.BlockType;
import dev.strata.sstable.block.CompactCursor;
import dev.strata.sstable.block.CompactIndex;
import dev.strata.sstable.block.IndexEntry;
import dev.strata.sstable.block.PointSearch;
import dev.strata.sstable.format.Bytes;
import dev.strata.sstable.format.CorruptTableException;
import dev.strata.sstable.format.SstableFormat;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.KeyCodec;
import dev.strata.sstable.key.ValueKind;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * The compact index of format version 5 ({@link CompactIndex}), built by {@link IndexWriter} over
 * random runs of blocks (cells with many versions, so some straddle two blocks; gaps between blocks,
 * so some offsets are stored): every data block's entry lies between its last key and the next
 * block's first key, each handle decodes as written, a search in place ({@link
 * PointSearch#seekCompact}) finds the first entry at or after any target exactly as a walk of all
 * entries does, and a damaged partition parses as corruption or as entries that search and walk
 * without any other failure.
 */
final class CompactIndexProperties {
  private static final Path FILE = Path.of("index-under-test");

  private static Gen<byte[]> bytes(int maxLength) {
    return Generate.byteArrays(Generate.range(0, maxLength), Generate.bytes((byte) 0x61, (byte) 0x63, (byte) 0x61));
  }

  private static Gen<InternalKey> keys() {
    return bytes(4).zip(bytes(2), Generate.longRange(0, 6), Generate.enumValues(ValueKind.class), InternalKey::new);
  }

  /** An index built over sorted keys cut into blocks: the blocks and what the writer wrote. */
  private record Built(List<List<InternalKey>> blocks, List<BlockHandle> handles, Block top,
      List<Block> partitions) {}

  private static Built build(List<InternalKey> keyList, long seed, int partitionBytes) throws IOException {
    TreeSet<InternalKey> sorted = new TreeSet<>(InternalKey.ORDER);
    sorted.addAll(keyList);
    Random random = new Random(seed);
    List<List<InternalKey>> blocks = new ArrayList<>();
    List<InternalKey> open = new ArrayList<>();
    for (InternalKey k : sorted) {
      open.add(k);
      if (random.nextInt(3) == 0) {
        blocks.add(open);
        open = new ArrayList<>();
      }
    }
    if (!open.isEmpty()) {
      blocks.add(open);
    }
    List<Block> partitions = new ArrayList<>();
    Block[] top = new Block[1];
    long[] fileEnd = {random.nextInt(100)};
    IndexWriter writer = new IndexWriter(partitionBytes, (type, payload, length) -> {
      BlockHandle h = new BlockHandle(fileEnd[0], length);
      fileEnd[0] = h.offset() + h.storedLength();
      Block b = Block.parse(Arrays.copyOf(payload, length), length, type, FILE, h.offset());
      if (type == BlockType.COMPACT_INDEX_PARTITION) {
        partitions.add(b);
      } else {
        assertEquals(BlockType.COMPACT_INDEX, type);
        top[0] = b;
      }
      return h;
    });
    List<BlockHandle> handles = new ArrayList<>();
    for (List<InternalKey> block : blocks) {
      writer.beforeKey(block.get(0));
      if (random.nextInt(4) == 0) {
        fileEnd[0] += 1 + random.nextInt(200); // a filter chunk between two data blocks
      }
      BlockHandle h = new BlockHandle(fileEnd[0], 10 + random.nextInt(5000));
      fileEnd[0] = h.offset() + h.storedLength();
      handles.add(h);
      writer.blockFinished(block.get(block.size() - 1), h);
    }
    writer.finish();
    return new Built(blocks, handles, top[0], partitions);
  }

  /** The internal key an expanded index entry's bytes hold. */
  private static InternalKey key(CompactCursor c) {
    return KeyCodec.decodeInternalKey(c.keyBytes(), 0, c.keyLength());
  }

  @Test
  void everyEntry_liesBetweenItsBlocks_andHandlesDecodeAsWritten() {
    qt().withExamples(300)
        .forAll(lists().of(keys()).ofSizeBetween(1, 300), integers().between(0, 1 << 20), integers().between(16, 600))
        .checkAssert((keys, seed, partitionBytes) -> {
          Built b = rethrow(() -> build(keys, seed, partitionBytes));
          int i = 0;
          CompactCursor c = new CompactCursor();
          for (Block p : b.partitions()) {
            c.reset(p);
            for (c.seekToFirst(); c.isValid(); c.next(), i++) {
              List<InternalKey> block = b.blocks().get(i);
              InternalKey s = key(c);
              InternalKey last = block.get(block.size() - 1);
              assertTrue(InternalKey.compare(last, s) <= 0, "block " + i + " ends after its entry " + s);
              if (i + 1 < b.blocks().size()) {
                InternalKey next = b.blocks().get(i + 1).get(0);
                assertTrue(InternalKey.compare(s, next) < 0, "the next block starts at or before " + s);
              }
              assertEquals(b.handles().get(i), BlockHandle.decodeOrNull(c.block().data, c.valueOffset(), Long.MAX_VALUE));
            }
          }
          assertEquals(b.blocks().size(), i);
          // Backward, partition by partition, the same keys.
          List<InternalKey> forward = new ArrayList<>();
          List<InternalKey> backward = new ArrayList<>();
          for (Block p : b.partitions()) {
            c.reset(p);
            for (c.seekToFirst(); c.isValid(); c.next()) {
              forward.add(key(c));
            }
            List<InternalKey> part = new ArrayList<>();
            for (c.seekToLast(); c.isValid(); c.prev()) {
              part.add(0, key(c));
            }
            backward.addAll(part);
          }
          assertEquals(forward, backward);
        });
  }

  @Test
  void searchInPlace_findsTheFirstEntryAtOrAfterTheTarget_asAWalkDoes() {
    qt().withExamples(300)
        .forAll(lists().of(keys()).ofSizeBetween(1, 300), integers().between(0, 1 << 20), lists().of(keys()).ofSize(20))
        .checkAssert((keys, seed, targets) -> {
          Built b = rethrow(() -> build(keys, seed, 64 + seed % 512));
          List<InternalKey> entries = new ArrayList<>();
          CompactCursor c = new CompactCursor();
          for (Block p : b.partitions()) {
            c.reset(p);
            for (c.seekToFirst(); c.isValid(); c.next()) {
              entries.add(key(c));
            }
          }
          List<InternalKey> all = new ArrayList<>(targets);
          all.addAll(keys);
          PointSearch search = new PointSearch();
          IndexEntry at = new IndexEntry();
          for (InternalKey any : all) {
            InternalKey t = new InternalKey(any.row(), any.column(), any.sequence(), ValueKind.PUT); // a Get's target
            int want = 0;
            while (want < entries.size() && InternalKey.compare(entries.get(want), t) < 0) {
              want++;
            }
            search.target(t.row(), t.column(), t.sequence());
            int found = locate(b, search, at);
            // A cursor's seek, for a target of any kind, through both levels.
            int wantAny = 0;
            while (wantAny < entries.size() && InternalKey.compare(entries.get(wantAny), any) < 0) {
              wantAny++;
            }
            assertEquals(wantAny, seekWithCursors(b, any), "cursor seek to " + any);
            assertEquals(want, found, "target " + t);
            if (found < entries.size()) {
              assertEquals(b.handles().get(found).offset(), at.dataOffset());
              assertEquals(b.handles().get(found).length(), at.dataLength());
            }
          }
        });
  }

  /** The index of the entry a {@link CompactCursor} seek finds for {@code target} in the top level, then in the partition it names. */
  private static int seekWithCursors(Built b, InternalKey target) {
    CompactCursor top = new CompactCursor();
    top.reset(b.top());
    top.seek(target);
    int before = 0;
    int p = 0;
    for (top.seekToFirst(); top.isValid(); top.next(), p++) {
      if (InternalKey.compare(key(top), target) >= 0) {
        break;
      }
      before += b.partitions().get(p).entryCount;
    }
    top.seek(target);
    if (!top.isValid()) {
      return before;
    }
    CompactCursor c = new CompactCursor();
    c.reset(b.partitions().get(p));
    c.seek(target);
    assertTrue(c.isValid(), "a partition's top-level key is its last key");
    int n = 0;
    CompactCursor walk = new CompactCursor();
    walk.reset(b.partitions().get(p));
    for (walk.seekToFirst(); walk.entryId() != c.entryId(); walk.next()) {
      n++;
    }
    return before + n;
  }

  /** The index of the entry found for {@code search}'s target (a PUT at its sequence), through both levels. */
  private static int locate(Built b, PointSearch search, IndexEntry at) {
    int p = search.firstRestartAtOrAfter(b.top(), 0);
    int before = 0;
    for (int i = 0; i < p && i < b.partitions().size(); i++) {
      before += b.partitions().get(i).entryCount;
    }
    if (p == b.partitions().size()) {
      return before;
    }
    Block partition = b.partitions().get(p);
    search.seekCompact(partition, search.firstRestartAtOrAfter(partition, 0), at);
    assertTrue(!at.pastEnd(partition), "a partition's top-level key is its last key");
    int n = 0;
    IndexEntry walk = new IndexEntry();
    for (walk.first(partition); walk.pos() != at.pos(); walk.next(partition)) {
      n++;
    }
    return before + n;
  }

  @Test
  void damagedPartition_isCorruption_orSearchesAndWalksWithoutAnyOtherFailure() {
    qt().withExamples(1000)
        .forAll(lists().of(keys()).ofSizeBetween(20, 200), integers().between(0, 1 << 20), integers().between(1, 255))
        .checkAssert((keys, seed, xor) -> {
          Built b = rethrow(() -> build(keys, seed, 1 << 20)); // one partition
          Block p = b.partitions().get(0);
          int length = p.entriesEnd() + 4 * p.restartCount + 4;
          byte[] damaged = Arrays.copyOf(p.data, length);
          damaged[seed % length] ^= (byte) (int) xor;
          Block parsed;
          try {
            parsed = Block.parse(damaged, length, BlockType.COMPACT_INDEX_PARTITION, FILE, 0);
          } catch (CorruptTableException expected) {
            assertTrue(expected.getMessage().contains(FILE.toString()));
            return;
          }
          CompactCursor c = new CompactCursor();
          c.reset(parsed);
          int n = 0;
          for (c.seekToFirst(); c.isValid(); c.next()) {
            key(c);
            n++;
          }
          assertEquals(parsed.entryCount, n);
          PointSearch search = new PointSearch();
          IndexEntry at = new IndexEntry();
          for (InternalKey t : keys) {
            search.target(t.row(), t.column(), t.sequence());
            search.seekCompact(parsed, search.firstRestartAtOrAfter(parsed, 0), at);
          }
        });
  }

  @Test
  void restartPoints_storeWholeKeysAndOffsets_atTheChosenInterval() throws IOException {
    List<InternalKey> keys = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      keys.add(new InternalKey(("row" + (100000 + i)).getBytes(), new byte[0], 5, ValueKind.PUT));
    }
    Built b = build(keys, 42, 1 << 20);
    Block p = b.partitions().get(0);
    assertEquals((p.entryCount + SstableFormat.COMPACT_INDEX_RESTART_INTERVAL - 1)
        / SstableFormat.COMPACT_INDEX_RESTART_INTERVAL, p.restartCount);
    // A row's only version never straddles two blocks: every key is a cell key, 2 + 9 bytes or fewer.
    int bytesPerEntry = p.entriesEnd() / p.entryCount;
    assertTrue(bytesPerEntry <= 12, "bytes per entry: " + bytesPerEntry);
    assertEquals(0, Bytes.getU32(p.data, p.entriesEnd()), "restart 0 at the first entry");
  }

  private interface Io<T> {
    T get() throws IOException;
  }

  private static <T> T rethrow(Io<T> io) {
    try {
      return io.get();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }
}
