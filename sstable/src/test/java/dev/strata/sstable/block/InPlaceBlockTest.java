package dev.strata.sstable.block;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.sstable.cache.BlockCacheKey;
import dev.strata.sstable.cache.BlockKind;
import dev.strata.sstable.cache.ClockBlockCache;
import dev.strata.sstable.cache.OffHeapBlock;
import dev.strata.sstable.format.CorruptTableException;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.KeyCodec;
import dev.strata.sstable.key.ValueKind;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A Get's hit on an off-heap data block searches it where the cache holds it: the thread's scratch
 * block lies over the slab's bytes, the search finds what a search of a copy finds, a block evicted
 * during the search voids its answer ({@link PointSearch#STALE}), and the retry that follows copies.
 */
final class InPlaceBlockTest {
  private static final Path FILE = Path.of("block-under-test");
  private static final byte[] EMPTY = new byte[0];
  private static final int ROWS = 60;

  private ClockBlockCache cache;

  @BeforeEach
  void cacheOneBlock() throws CorruptTableException {
    Assumptions.assumeTrue(BlockBytes.Direct.supported(), "no Unsafe here: blocks are copied");
    cache = new ClockBlockCache(1 << 20, 1, true);
    put();
  }

  @AfterEach
  void close() {
    if (cache != null) {
      cache.close();
    }
  }

  private static byte[] row(int i) {
    return String.format("row-%04d", i).getBytes(StandardCharsets.US_ASCII);
  }

  private static byte[] value(int i) {
    return ("value-" + i + "-" + "v".repeat(i)).getBytes(StandardCharsets.US_ASCII);
  }

  /** Even rows only, so that odd ones are absent between present ones. */
  private void put() throws CorruptTableException {
    BlockBuilder builder = new BlockBuilder(4);
    for (int i = 0; i < ROWS; i += 2) {
      byte[] k = KeyCodec.encodeInternalKey(new InternalKey(row(i), EMPTY, 1000 - i, ValueKind.PUT));
      byte[] v = value(i);
      builder.add(k, k.length, v, 0, v.length);
    }
    int length = builder.estimatedSize();
    byte[] payload = Arrays.copyOf(builder.finish(), length);
    cache.put(new BlockCacheKey(1, 0), BlockKind.DATA, Block.parse(payload, length, BlockType.DATA, FILE, 0));
  }

  private Block hit() {
    OffHeapBlock view = new OffHeapBlock();
    OffHeapBlock found = (OffHeapBlock) cache.getIfPresent(1, 0, BlockKind.DATA, view);
    assertNotNull(found, "the block is cached");
    return OffHeapCopy.toHeap(found, true, FILE, 0);
  }

  private static int search(PointSearch search, Block b, int i) {
    search.target(row(i), EMPTY, InternalKey.MAX_SEQUENCE);
    return search.scan(b, search.interval(b), false);
  }

  @Test
  void aHitIsSearchedInPlace_andFindsWhatACopyFinds() {
    PointSearch search = new PointSearch();
    for (int i = 0; i < ROWS + 2; i++) {
      Block b = hit();
      assertNotNull(b.inPlace, "laid over the slab, not copied");
      int found = search(search, b, i);
      if (i % 2 == 0 && i < ROWS) {
        assertEquals(PointSearch.FOUND, found, "row " + i);
        assertArrayEquals(value(i), search.value(), "row " + i);
        assertEquals(1000 - i, search.sequence());
      } else {
        assertEquals(PointSearch.ABSENT, found, "row " + i);
      }
    }
  }

  @Test
  void aBlockEvictedDuringTheSearch_voidsItsAnswer_andTheRetryCopies() throws CorruptTableException {
    PointSearch search = new PointSearch();
    Block b = hit();
    assertNotNull(b.inPlace);
    search.target(row(10), EMPTY, InternalKey.MAX_SEQUENCE);
    long interval = search.interval(b);
    cache.evictFiles(Set.of(1L)); // no reference held: its slots go back to the arena now
    assertEquals(PointSearch.STALE, search.scan(b, interval, false));

    put(); // the same block again, in a new generation
    Block retry = hit();
    assertNull(retry.inPlace, "the retry after a torn search copies");
    assertEquals(PointSearch.FOUND, search(search, retry, 10));
    assertArrayEquals(value(10), search.value());

    Block next = hit();
    assertSame(retry, next, "the thread's scratch block either way");
    assertNotNull(next.inPlace, "and the next hit is read in place again");
    assertEquals(PointSearch.FOUND, search(search, next, 12));
    assertArrayEquals(value(12), search.value());
  }

  @Test
  void aClosedCachesBlock_isNotReadInPlace() {
    OffHeapBlock view = new OffHeapBlock();
    OffHeapBlock found = (OffHeapBlock) cache.getIfPresent(1, 0, BlockKind.DATA, view);
    cache.close();
    Block b = OffHeapCopy.toHeap(found, true, FILE, 0);
    assertTrue(b == null || b.inPlace == null, "a closed arena lends no bytes");
  }
}
