package dev.strata.engine.memtable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.sstable.GetResult;
import dev.strata.sstable.key.ValueKind;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

final class MemTableMemoryTest {

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static void fill(MemTable mem, int entries) {
    for (int i = 0; i < entries; i++) {
      mem.add(ValueKind.PUT, bytes("row" + i), bytes("c"), i, new byte[100]);
    }
  }

  @Test
  void chunkSize_isASixteenthOfTheBudget_withinItsBounds() {
    assertEquals(1 << 20, MemTableMemory.pooled(64L << 20).chunkBytes());
    assertEquals(1 << 20, MemTableMemory.pooled(16L << 20).chunkBytes());
    assertEquals(64 << 10, MemTableMemory.pooled(1L << 20).chunkBytes());
    assertEquals(MemTableMemory.MIN_CHUNK_BYTES, MemTableMemory.pooled(1).chunkBytes());
    assertEquals(1 << 20, MemTableMemory.pooled(Long.MAX_VALUE).chunkBytes());
  }

  @Test
  void aReleasedMemTablesChunks_areReusedByTheNext() {
    MemTableMemory memory = MemTableMemory.pooled(8L << 20);
    MemTable first = new MemTable(8L << 20, memory);
    fill(first, 30_000); // about 4.5 MiB
    long allocated = memory.allocatedBytes();
    assertTrue(allocated > 4L << 20, "allocated " + allocated);
    first.release();
    assertEquals(allocated, memory.pooledBytes());
    MemTable second = new MemTable(8L << 20, memory);
    fill(second, 30_000);
    assertEquals(allocated, memory.allocatedBytes(), "nothing new allocated");
    assertEquals(0, memory.pooledBytes());
    assertArrayEquals(new byte[100], second.get(bytes("row7"), bytes("c"), 100).value());
    second.release();
    memory.close();
    assertEquals(0, memory.allocatedBytes(), "close frees the pool");
  }

  @Test
  void thePool_keepsAboutOneMemTable_andFreesTheRest() {
    MemTableMemory memory = MemTableMemory.pooled(1L << 20); // 64 KiB chunks, about 1 MiB pooled
    MemTable a = new MemTable(1L << 20, memory);
    MemTable b = new MemTable(1L << 20, memory);
    fill(a, 20_000); // about 3 MiB each
    fill(b, 20_000);
    a.release();
    b.release();
    long pooled = memory.pooledBytes();
    assertTrue(pooled <= (1L << 20) + 2 * (64 << 10), "pooled " + pooled);
    assertEquals(memory.pooledBytes(), memory.allocatedBytes(), "the rest was freed");
    memory.close();
  }

  @Test
  void aViewsReference_keepsTheMemoryUntilItIsReleased() {
    MemTableMemory memory = MemTableMemory.pooled(4L << 20);
    MemTable mem = new MemTable(4L << 20, memory);
    fill(mem, 1_000);
    mem.retain(); // a read view's
    mem.release(); // the engine's
    assertEquals(0, memory.pooledBytes(), "still held by the view");
    GetResult hit = mem.get(bytes("row5"), bytes("c"), 10);
    assertEquals(100, hit.value().length);
    mem.release();
    assertTrue(memory.pooledBytes() > 0, "given back with the last reference");
    assertThrows(IllegalStateException.class, mem::retain);
    assertThrows(IllegalStateException.class, mem::release);
    assertThrows(IllegalStateException.class,
        () -> mem.add(ValueKind.PUT, bytes("x"), bytes("c"), 5_000, new byte[1]));
    memory.close();
  }

  @Test
  void chunksGivenBackAfterClose_areFreed() {
    MemTableMemory memory = MemTableMemory.pooled(4L << 20);
    MemTable mem = new MemTable(4L << 20, memory);
    fill(mem, 1_000);
    memory.close();
    mem.release();
    assertEquals(0, memory.pooledBytes());
    assertEquals(0, memory.allocatedBytes());
  }

  @Test
  void anUnpooledMemTable_startsSmall() {
    MemTable mem = new MemTable();
    mem.add(ValueKind.PUT, bytes("r"), bytes("c"), 1, bytes("v"));
    assertTrue(mem.bytesHeld() < 1 << 20, "held " + mem.bytesHeld());
    assertNull(mem.get(bytes("q"), bytes("c"), 5).value());
    mem.release();
  }
}
