package dev.strata.sstable.block;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.sstable.format.CorruptTableException;
import dev.strata.sstable.format.SstableFormat;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.KeyCodec;
import dev.strata.sstable.key.ValueKind;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * A scratch block's {@link Block#owned} copy holds just the payload (and, for an index partition,
 * the row heads a parsed partition keeps), and {@link Block#ownedSizeBytes} weighs that copy
 * exactly without making it: the cache charges a borrowed block by it before it decides to copy.
 */
final class OwnedCopyTest {
  private static final Path FILE = Path.of("block-under-test");

  private static byte[] dataBlock() {
    BlockBuilder builder = new BlockBuilder(4);
    for (int i = 0; i < 40; i++) {
      byte[] row = String.format("row-%04d", i).getBytes(StandardCharsets.US_ASCII);
      byte[] k = KeyCodec.encodeInternalKey(new InternalKey(row, new byte[0], 100 - i, ValueKind.PUT));
      builder.add(k, k.length, row, 0, row.length);
    }
    int length = builder.estimatedSize();
    return Arrays.copyOf(builder.finish(), length);
  }

  @Test
  void aScratchBlocksOwnedCopy_isWeighedExactlyBeforeItIsMade() throws CorruptTableException {
    byte[] payload = dataBlock();
    int length = payload.length;
    byte[] buffer = Arrays.copyOf(payload, length + 8192); // a thread's buffer, longer than the block
    Block scratch = Block.parseDataInto(Block.reusable(), buffer, length, FILE, 0);
    assertTrue(scratch.borrowed());
    int weighed = scratch.ownedSizeBytes();

    Block copy = scratch.owned();
    assertNotSame(scratch, copy);
    assertEquals(copy.sizeBytes(), weighed);
    assertTrue(weighed < scratch.sizeBytes(), "the copy does not carry the buffer's spare bytes");
    assertEquals(copy.sizeBytes(), copy.ownedSizeBytes(), "an owned block is its own copy");
    assertArrayEquals(payload, Arrays.copyOf(copy.offHeapBytes(), copy.offHeapLength()));
  }

  /** An index partition of 40 rows sharing the prefix "user-", every entry a restart point. */
  private static byte[] indexPartition() {
    BlockBuilder builder = new BlockBuilder(SstableFormat.INDEX_RESTART_INTERVAL);
    byte[] handle = new byte[SstableFormat.HANDLE_BYTES];
    for (int i = 0; i < 40; i++) {
      byte[] row = String.format("user-%06d", i * 37).getBytes(StandardCharsets.US_ASCII);
      byte[] k = KeyCodec.encodeInternalKey(new InternalKey(row, new byte[0], 1, ValueKind.PUT));
      builder.add(k, k.length, handle, 0, handle.length);
    }
    int length = builder.estimatedSize();
    return Arrays.copyOf(builder.finish(), length);
  }

  @Test
  void aScratchPartitionsOwnedCopy_keepsRowHeads_andIsWeighedExactlyBeforeItIsMade() throws CorruptTableException {
    byte[] payload = indexPartition();
    int length = payload.length;
    byte[] buffer = Arrays.copyOf(payload, length + 8192);
    Block scratch = Block.parseInto(Block.reusable(BlockType.INDEX_PARTITION), buffer, length, FILE, 0);
    assertTrue(scratch.borrowed());
    int weighed = scratch.ownedSizeBytes();

    Block copy = scratch.owned();
    Block parsed = Block.parse(payload, length, BlockType.INDEX_PARTITION, FILE, 0);
    assertEquals(parsed.sizeBytes(), copy.sizeBytes(), "the copy keeps what a parse keeps, row heads too");
    assertEquals(copy.sizeBytes(), weighed);
    assertEquals(BlockType.INDEX_PARTITION, copy.type());
    assertArrayEquals(parsed.rowHeads, copy.rowHeads);
    assertArrayEquals(parsed.sharedRow, copy.sharedRow);
    assertEquals(null, scratch.rowHeads, "the scratch partition is searched by its keys");
  }
}
