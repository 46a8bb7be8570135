package dev.strata.engine.memtable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.IdentityHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class ArenaTest {
  /** A G1 region of a heap under 4 GiB, and the header of a byte array on a 64-bit JVM. */
  private static final int REGION_BYTES = 1 << 20;

  private static final int ARRAY_HEADER_BYTES = 16;

  @Test
  void regularChunks_eachFitOneMebibyteHeapRegionWithTheirArrayHeader() {
    Arena arena = new Arena();
    Map<byte[], Boolean> chunks = new IdentityHashMap<>();
    long held = 0;
    for (int i = 0; i < 100_000; i++) { // 12 MB of 120-byte slices
      byte[] chunk = arena.chunk(arena.allocate(120));
      if (chunks.put(chunk, true) == null) {
        held += chunk.length;
        assertTrue(chunk.length + ARRAY_HEADER_BYTES <= REGION_BYTES,
            "a chunk of " + chunk.length + " bytes spans two 1 MiB regions");
      }
    }
    assertEquals(held, arena.bytesHeld());
    assertTrue(chunks.size() > 10, "reached the largest chunks: " + chunks.size());
  }
}
