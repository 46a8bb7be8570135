package dev.strata.engine.memtable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.sstable.key.ValueKind;
import java.nio.ByteBuffer;
import java.util.IdentityHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class ArenaTest {

  @Test
  void unpooledChunks_growFromTheSmallestToTheLargest_andAreDirect() {
    Arena arena = new Arena(MemTableMemory.unpooled());
    Map<ByteBuffer, Boolean> chunks = new IdentityHashMap<>();
    long held = 0;
    int largest = 0;
    for (int i = 0; i < 100_000; i++) { // 12 MB of 120-byte slices
      ByteBuffer chunk = arena.chunk(arena.allocate(120));
      if (chunks.put(chunk, true) == null) {
        held += chunk.capacity();
        largest = Math.max(largest, chunk.capacity());
        assertTrue(chunk.isDirect(), "a heap chunk");
      }
    }
    assertEquals(held, arena.bytesHeld());
    assertEquals(MemTableMemory.MAX_CHUNK_BYTES, largest);
    assertTrue(arena.bytesUsed() >= 12_000_000L && arena.bytesUsed() <= held);
  }

  @Test
  void allocationsOfMultiplesOfEight_areEightByteAligned() {
    Arena arena = new Arena(MemTableMemory.pooled(1 << 20));
    for (int i = 0; i < 50_000; i++) {
      long a = arena.allocate(8 * (1 + i % 13));
      assertEquals(0, Arena.offset(a) % 8, "offset " + Arena.offset(a));
    }
  }

  @Test
  void largeAllocation_getsAChunkOfItsOwn_andTheCurrentChunkStaysCurrent() {
    Arena arena = new Arena(MemTableMemory.pooled(64L << 20));
    long small = arena.allocate(100);
    arena.allocate(900_000); // fits the first chunk
    long large = arena.allocate(600_000); // fits no more, and is over a quarter of a 1 MiB chunk
    long next = arena.allocate(100);
    assertEquals(600_000, arena.chunk(large).capacity());
    assertTrue(arena.chunk(small) == arena.chunk(next), "the small allocations share a chunk");
    assertEquals(900_100, Arena.offset(next));
  }

  @Test
  void release_givesEveryChunkBack_andALaterUseFailsInsteadOfReadingReusedMemory() {
    MemTableMemory memory = MemTableMemory.pooled(4L << 20);
    Arena arena = new Arena(memory);
    long a = 0;
    for (int i = 0; i < 20_000; i++) {
      a = arena.allocate(120); // about 2.3 MiB: several pooled chunks
    }
    long allocated = memory.allocatedBytes();
    arena.release();
    assertEquals(allocated, memory.pooledBytes(), "every chunk back in the pool");
    long address = a;
    assertThrows(ArrayIndexOutOfBoundsException.class, () -> arena.chunk(address));
    Arena next = new Arena(memory);
    for (int i = 0; i < 20_000; i++) {
      next.allocate(120);
    }
    assertEquals(allocated, memory.allocatedBytes(), "the next arena reused the chunks");
    memory.close();
  }

  /**
   * The debug check behind every test: a chunk given back is poisoned (assertions are on here), so
   * a reader that kept it reads poison, and a memtable's iterator used after its release fails on
   * the emptied directory instead of reading memory another memtable owns.
   */
  @Test
  void releasedChunks_arePoisoned_andAReleasedMemTablesIteratorFails() {
    MemTableMemory memory = MemTableMemory.pooled(4L << 20);
    Arena arena = new Arena(memory);
    long a = arena.allocate(64);
    ByteBuffer kept = arena.chunk(a);
    kept.putLong(Arena.offset(a), 42);
    arena.release();
    for (int i = 0; i + Long.BYTES <= kept.capacity(); i += Long.BYTES) {
      assertEquals(MemTableMemory.POISON, kept.getLong(i), "byte " + i);
    }
    assertTrue((MemTableMemory.POISON >>> 48 & 0x8000) != 0, "a poisoned row length is impossible");

    MemTable mem = new MemTable(1 << 20, memory);
    for (int i = 0; i < 1_000; i++) {
      byte[] row = {(byte) (i >> 8), (byte) i};
      mem.add(ValueKind.PUT, row, new byte[0], i + 1, new byte[8]);
    }
    MemTableIterator it = mem.iterator();
    it.seekToFirst();
    mem.release();
    assertThrows(ArrayIndexOutOfBoundsException.class, it::next);
    assertThrows(IllegalStateException.class, mem::retain);
  }
}
