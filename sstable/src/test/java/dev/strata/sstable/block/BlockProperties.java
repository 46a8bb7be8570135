package dev.strata.sstable.block;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import dev.strata.sstable.format.CorruptTableException;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.KeyCodec;
import dev.strata.sstable.key.ValueKind;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * A block's entries round-trip through {@link BlockBuilder}, {@link Block#parse} and {@link
 * BlockCursor} for any restart interval, forward and backward, and a seek lands on the first key at
 * or after its target.
 */
final class BlockProperties {
  private static final Path FILE = Path.of("block-under-test");

  private static Gen<byte[]> bytes(int maxLength) {
    return Generate.byteArrays(Generate.range(0, maxLength), Generate.bytes((byte) -128, (byte) 127, (byte) 0));
  }

  private static Gen<InternalKey> keys() {
    return bytes(5).zip(bytes(4), Generate.longRange(0, 1000), Generate.enumValues(ValueKind.class), InternalKey::new);
  }

  @Test
  void entries_roundTrip_andSeekFindsTheFirstKeyAtOrAfterTheTarget() {
    qt().withExamples(300)
        .forAll(lists().of(keys()).ofSizeBetween(1, 120), integers().between(1, 20), keys())
        .checkAssert((keys, interval, target) -> {
          TreeMap<InternalKey, byte[]> sorted = new TreeMap<>(InternalKey.ORDER);
          for (InternalKey k : keys) {
            sorted.put(k, k.row()); // value: any bytes; the row is handy
          }
          BlockBuilder builder = new BlockBuilder(interval);
          for (var e : sorted.entrySet()) {
            byte[] k = KeyCodec.encodeInternalKey(e.getKey());
            builder.add(k, k.length, e.getValue(), 0, e.getValue().length);
          }
          int length = builder.estimatedSize();
          byte[] payload = java.util.Arrays.copyOf(builder.finish(), length);
          Block block;
          try {
            block = Block.parse(payload, length, BlockType.DATA, FILE, 0);
          } catch (CorruptTableException e) {
            throw new AssertionError(e);
          }
          assertEquals(sorted.size(), block.entryCount);
          BlockCursor c = new BlockCursor();
          c.reset(block);
          List<InternalKey> read = new ArrayList<>();
          for (c.seekToFirst(); c.isValid(); c.next()) {
            InternalKey k = KeyCodec.decodeInternalKey(c.keyBytes(), 0, c.keyLength());
            read.add(k);
            assertArrayEquals(sorted.get(k), c.value());
          }
          assertEquals(new ArrayList<>(sorted.keySet()), read);
          List<InternalKey> backward = new ArrayList<>();
          for (c.seekToLast(); c.isValid(); c.prev()) {
            InternalKey k = KeyCodec.decodeInternalKey(c.keyBytes(), 0, c.keyLength());
            backward.add(0, k);
            assertArrayEquals(sorted.get(k), c.value());
          }
          assertEquals(read, backward, "backward from the last entry");
          c.seek(target);
          InternalKey want = sorted.ceilingKey(target);
          if (want == null) {
            assertFalse(c.isValid());
          } else {
            assertTrue(c.isValid());
            assertEquals(want, KeyCodec.decodeInternalKey(c.keyBytes(), 0, c.keyLength()));
          }
        });
  }

  @Test
  void parse_neverThrowsAnythingButCorruption_onDamagedPayloads() {
    qt().withExamples(500)
        .forAll(lists().of(keys()).ofSizeBetween(1, 40), integers().between(0, 10_000), integers().between(0, 255))
        .checkAssert((keys, position, xor) -> {
          TreeMap<InternalKey, byte[]> sorted = new TreeMap<>(InternalKey.ORDER);
          keys.forEach(k -> sorted.put(k, k.column()));
          BlockBuilder builder = new BlockBuilder(3);
          for (var e : sorted.entrySet()) {
            byte[] k = KeyCodec.encodeInternalKey(e.getKey());
            builder.add(k, k.length, e.getValue(), 0, e.getValue().length);
          }
          int length = builder.estimatedSize();
          byte[] payload = java.util.Arrays.copyOf(builder.finish(), length);
          payload[position % length] ^= (byte) (int) xor;
          try {
            Block block = Block.parse(payload, length, BlockType.DATA, FILE, 0);
            BlockCursor c = new BlockCursor();
            c.reset(block);
            int n = 0;
            for (c.seekToFirst(); c.isValid(); c.next()) {
              KeyCodec.decodeInternalKey(c.keyBytes(), 0, c.keyLength());
              n++;
            }
            assertEquals(block.entryCount, n);
          } catch (CorruptTableException expected) {
            assertTrue(expected.getMessage().contains(FILE.toString()));
          }
        });
  }
}
