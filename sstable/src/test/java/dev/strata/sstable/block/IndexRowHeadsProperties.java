package dev.strata.sstable.block;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.strata.sstable.format.CorruptTableException;
import dev.strata.sstable.format.SstableFormat;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.KeyCodec;
import dev.strata.sstable.key.ValueKind;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * An index block's row heads ({@link Block#rowHeads}) change no answer: {@link
 * PointSearch#firstRestartAtOrAfter} finds, from any start below the answer, the first key at or
 * after the target that comparing every key's bytes finds. Seeded; the seed is printed.
 */
final class IndexRowHeadsProperties {
  private static final Path FILE = Path.of("000001.sst");

  @Test
  void searchesWithRowHeads_answerAsTheKeysBytesDo() throws CorruptTableException {
    long seed = System.nanoTime();
    System.out.println("IndexRowHeadsProperties seed " + seed);
    Random random = new Random(seed);
    for (int round = 0; round < 400; round++) {
      byte[] common = rowBytes(random, random.nextInt(12));
      List<InternalKey> keys = sortedKeys(random, common, 1 + random.nextInt(120));
      Block block = indexBlock(keys, round % 2 == 0 ? BlockType.INDEX_PARTITION : BlockType.INDEX);
      assertNotNull(block.rowHeads, "an index block keeps its row heads");
      PointSearch search = new PointSearch();
      for (int t = 0; t < 60; t++) {
        InternalKey target = key(random, t % 3 == 0 ? new byte[0] : common);
        search.target(target.row(), target.column(), target.sequence());
        int want = firstAtOrAfter(keys, target);
        int from = random.nextInt(want + 1);
        assertEquals(want, search.firstRestartAtOrAfter(block, from),
            () -> "seed " + seed + ": target " + target + " in " + keys);
      }
    }
  }

  @Test
  void theSharedRowIsTheLongestPrefixOfEveryRow_andDataBlocksKeepNoHeads() throws CorruptTableException {
    List<InternalKey> keys = List.of(
        new InternalKey(bytes("user0001a"), bytes("c"), 9, ValueKind.PUT),
        new InternalKey(bytes("user0001b"), bytes(""), 3, ValueKind.PUT),
        new InternalKey(bytes("user0002"), bytes("c"), 5, ValueKind.DELETE));
    Block index = indexBlock(keys, BlockType.INDEX_PARTITION);
    assertArrayEquals(bytes("user000"), index.sharedRow);
    assertEquals(3, index.rowHeads.length);

    BlockBuilder data = new BlockBuilder(16);
    for (InternalKey k : keys) {
      byte[] encoded = KeyCodec.encodeInternalKey(k);
      data.add(encoded, encoded.length, new byte[5], 0, 5);
    }
    int length = data.estimatedSize();
    assertNull(Block.parse(data.finish(), length, BlockType.DATA, FILE, 0).rowHeads);
  }

  /** Keys of rows that start with {@code common} (most of them), distinct, in order. */
  private static List<InternalKey> sortedKeys(Random random, byte[] common, int n) {
    TreeSet<InternalKey> keys = new TreeSet<>(InternalKey.ORDER);
    while (keys.size() < n) {
      keys.add(key(random, random.nextInt(10) == 0 ? new byte[0] : common));
    }
    return new ArrayList<>(keys);
  }

  /**
   * A key whose row is {@code prefix} plus 0 to 12 bytes over 0, 1, 'k' and 255 (ties of 8 bytes,
   * rows that are prefixes of others, pads and sign bits all common); sequences from a small range so
   * that one cell has several versions.
   */
  private static InternalKey key(Random random, byte[] prefix) {
    byte[] tail = rowBytes(random, random.nextInt(13));
    byte[] row = new byte[prefix.length + tail.length];
    System.arraycopy(prefix, 0, row, 0, prefix.length);
    System.arraycopy(tail, 0, row, prefix.length, tail.length);
    byte[] column = rowBytes(random, random.nextInt(3));
    return new InternalKey(row, column, 1 + random.nextInt(6),
        random.nextInt(4) == 0 ? ValueKind.DELETE : ValueKind.PUT);
  }

  private static byte[] rowBytes(Random random, int length) {
    byte[] alphabet = {0, 1, 'k', (byte) 255};
    byte[] b = new byte[length];
    for (int i = 0; i < length; i++) {
      b[i] = alphabet[random.nextInt(alphabet.length)];
    }
    return b;
  }

  /** An index block of {@code keys} (every entry a restart point), values 12-byte handles. */
  private static Block indexBlock(List<InternalKey> keys, BlockType type) throws CorruptTableException {
    BlockBuilder builder = new BlockBuilder(SstableFormat.INDEX_RESTART_INTERVAL);
    byte[] handle = new byte[SstableFormat.HANDLE_BYTES];
    for (InternalKey k : keys) {
      byte[] encoded = KeyCodec.encodeInternalKey(k);
      builder.add(encoded, encoded.length, handle, 0, handle.length);
    }
    int length = builder.estimatedSize();
    return Block.parse(builder.finish(), length, type, FILE, 0);
  }

  /** The answer by the keys' bytes alone: the first key at or after (row, column, sequence, PUT). */
  private static int firstAtOrAfter(List<InternalKey> keys, InternalKey target) {
    for (int i = 0; i < keys.size(); i++) {
      byte[] k = KeyCodec.encodeInternalKey(keys.get(i));
      if (KeyCodec.compare(target.row(), target.column(), target.sequence(), ValueKind.PUT,
          k, 0, k.length) <= 0) {
        return i;
      }
    }
    return keys.size();
  }

  private static byte[] bytes(String s) {
    return s.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  }
}
