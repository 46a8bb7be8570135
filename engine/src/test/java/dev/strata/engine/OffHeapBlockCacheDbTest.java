package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code blockCacheOffHeapMinBytes}: with data blocks held off the heap, Gets (first from disk, then
 * from the cache), batched Gets and cursors return the same bytes, and closing the database frees
 * the cache's direct memory at once, open after open.
 */
final class OffHeapBlockCacheDbTest {
  private static final int KEYS = 20_000;

  @TempDir Path dir;

  private static DbOptions options(boolean offHeap) {
    return DbOptions.builder()
        .blockCacheBytes(8 << 20)
        .blockCacheOffHeapMinBytes(offHeap ? 0 : Long.MAX_VALUE)
        .memtableBytes(256 << 10) // several tables, so Gets consult more than one
        .build();
  }

  private static byte[] key(int i) {
    return String.format("key%08d", i * 7919 % KEYS).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] value(int i) {
    return ("value-" + i + "-" + "x".repeat(i % 200)).getBytes(StandardCharsets.UTF_8);
  }

  private static int indexOf(byte[] key) {
    int k = Integer.parseInt(new String(key, 3, 8, StandardCharsets.US_ASCII));
    for (int i = 0; ; i++) { // i * 7919 % KEYS == k: 7919 is prime to KEYS
      if (i * 7919 % KEYS == k) {
        return i;
      }
    }
  }

  @Test
  void offHeapBlocks_readBackAsWritten_throughGetsBatchesAndCursors() throws IOException {
    try (Db db = Db.open(dir, options(true))) {
      for (int i = 0; i < KEYS; i++) {
        db.put(key(i), value(i));
      }
      db.flush();
      assertTrue(db.options().blockCacheOffHeap());
      for (int pass = 0; pass < 2; pass++) { // misses, then hits on off-heap blocks
        for (int i = 0; i < KEYS; i += 3) {
          assertArrayEquals(value(i), db.get(key(i)), "key " + i + " pass " + pass);
        }
        assertEquals(null, db.get("key-absent".getBytes(StandardCharsets.UTF_8)));
      }
      List<byte[]> keys = new ArrayList<>();
      for (int i = 0; i < KEYS; i += 5) {
        keys.add(key(i));
      }
      List<byte[]> values = db.multiGet(keys);
      for (int j = 0; j < keys.size(); j++) {
        assertArrayEquals(value(j * 5), values.get(j), "batched key " + j * 5);
      }
      int seen = 0;
      try (CellCursor c = db.cursor()) {
        for (c.seekToFirst(); c.isValid(); c.next()) {
          assertArrayEquals(value(indexOf(c.row())), c.value());
          seen++;
        }
      }
      assertEquals(KEYS, seen);
      assertTrue(db.stats().dataBlockCacheHits() > 0);
    }
  }

  @Test
  void close_freesTheCachesDirectMemory_openAfterOpen() throws IOException {
    try (Db db = Db.open(dir, options(true))) {
      for (int i = 0; i < KEYS; i++) {
        db.put(key(i), value(i));
      }
      db.flush();
    }
    readAll(); // warms what else holds direct buffers (the JDK's per-thread I/O buffers)
    long baseline = directBytes();
    for (int cycle = 0; cycle < 8; cycle++) {
      long during = readAll();
      assertTrue(during >= baseline + (1 << 20), "no slabs while open: " + during + " vs " + baseline);
      long after = directBytes();
      assertTrue(after < baseline + (1 << 20), "cycle " + cycle + ": " + after + " bytes of direct "
          + "memory after close, " + baseline + " before the cycles: slabs leaked");
    }
  }

  /** Opens the database, reads every key through the cache, closes; the direct bytes while open. */
  private long readAll() throws IOException {
    try (Db db = Db.open(dir, options(true))) {
      for (int i = 0; i < KEYS; i++) {
        db.get(key(i));
      }
      return directBytes();
    }
  }

  private static long directBytes() {
    for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
      if (pool.getName().equals("direct")) {
        return pool.getMemoryUsed();
      }
    }
    throw new AssertionError("no direct buffer pool");
  }
}
