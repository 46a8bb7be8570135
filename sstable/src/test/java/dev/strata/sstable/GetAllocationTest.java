package dev.strata.sstable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.sstable.block.BlockCompression;
import dev.strata.sstable.cache.ClockBlockCache;
import dev.strata.sstable.cache.HeapCost;
import dev.strata.sstable.filter.FilterProbe;
import dev.strata.sstable.filter.FilterType;
import dev.strata.sstable.format.SstableFormat;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.ValueKind;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A Get of a present cell whose blocks the cache holds allocates the value it returns and nothing
 * else: no cache key per block looked up, no block object around an off-heap block's copy; one
 * that misses its data block, the value and what the cache keeps of the block. Counted
 * with the thread's allocated-bytes counter ({@code com.sun.management.ThreadMXBean}), which counts
 * bytes, not time.
 */
final class GetAllocationTest {
  private static final byte[] EMPTY = new byte[0];
  private static final int ROWS = 5_000;
  private static final int VALUE_BYTES = 100;

  @TempDir Path dir;

  private static byte[] row(long i) {
    return String.format("row%09d", i).getBytes(StandardCharsets.US_ASCII);
  }

  /** A table of rows 0 to ROWS - 1, each a cell with a value of VALUE_BYTES. */
  private Path writeRows() throws IOException {
    return writeRows(TableOptions.defaults());
  }

  /** {@link #writeRows()} under {@code options}. */
  private Path writeRows(TableOptions options) throws IOException {
    Path file = dir.resolve(SstableFormat.fileName(1));
    try (TableWriter w = TableWriter.create(file, options)) {
      for (long i = 0; i < ROWS; i++) {
        w.add(new InternalKey(row(i), EMPTY, i + 1, ValueKind.PUT), new byte[VALUE_BYTES]);
      }
      w.finish();
    }
    return file;
  }

  /** Uncompressed blocks of {@code blockBytes} (so the bytes read say how large the blocks are). */
  private static TableOptions uncompressed(int blockBytes, FilterType filter) {
    return new TableOptions(blockBytes, filter, TableOptions.DEFAULT_BITS_PER_KEY,
        TableOptions.DEFAULT_FILTER_CHUNK_BYTES, BlockCompression.NONE);
  }

  /** Every row, 97 rows apart: each Get in another block than the last. */
  private static byte[][] strided() {
    byte[][] rows = new byte[ROWS][];
    for (int i = 0; i < ROWS; i++) {
      rows[i] = row((i * 97L) % ROWS);
    }
    return rows;
  }

  /** Gets {@code rows} from {@code t} {@code passes} times, each value taken. */
  private static void getAll(TableReader t, byte[][] rows, int passes) throws IOException {
    FilterProbe probe = FilterProbe.reusable();
    CellLookup out = new CellLookup();
    for (int pass = 0; pass < passes; pass++) {
      for (byte[] r : rows) {
        t.get(probe.aim(r, EMPTY), InternalKey.MAX_SEQUENCE, out);
        assertEquals(VALUE_BYTES, out.takeValue().length);
      }
    }
  }

  /**
   * What a heap cache keeps of {@code misses} data blocks read as {@code read} counts them: per
   * miss the payload's array (its mean length, rounded up), the block and the node.
   */
  private static long keptOnHeap(TableReadStats read, long misses) {
    long payload = read.bytesRead() / read.dataBlocksRead() - SstableFormat.BLOCK_TRAILER_BYTES;
    return misses * (HeapCost.byteArray((int) payload) + 8 + HeapCost.object(3 * 4 + 4 * HeapCost.REFERENCE + 8 + 1)
        + ClockBlockCache.ENTRY_BYTES);
  }

  /** Fills {@code probes} and {@code out} with reusable probes and empty holders, for batches. */
  private static void fill(FilterProbe[] probes, CellLookup[] out) {
    for (int k = 0; k < probes.length; k++) {
      probes[k] = FilterProbe.reusable();
      out[k] = new CellLookup();
    }
  }

  /** Bytes this thread has allocated so far. */
  private static long allocatedBytes() {
    return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean())
        .getThreadAllocatedBytes(Thread.currentThread().getId());
  }

  @ParameterizedTest(name = "offHeap={0}")
  @ValueSource(booleans = {false, true})
  void cachedPresentGet_allocatesOnlyTheValue(boolean offHeap) throws IOException {
    Path file = writeRows();
    ClockBlockCache cache = new ClockBlockCache(64 << 20, 4, offHeap);
    try (TableReader t = TableReader.open(file, 1, cache)) {
      byte[][] rows = new byte[ROWS][];
      for (int i = 0; i < ROWS; i++) {
        rows[i] = row(i);
      }
      FilterProbe probe = FilterProbe.reusable();
      CellLookup out = new CellLookup();
      for (int pass = 0; pass < 3; pass++) { // loads every block, then warms the path up
        for (int i = 0; i < ROWS; i++) {
          t.get(probe.aim(rows[i], EMPTY), InternalKey.MAX_SEQUENCE, out);
          assertEquals(VALUE_BYTES, out.takeValue().length);
        }
      }
      long before = allocatedBytes();
      for (int i = 0; i < ROWS; i++) {
        t.get(probe.aim(rows[i], EMPTY), InternalKey.MAX_SEQUENCE, out);
        out.takeValue();
      }
      long perGet = (allocatedBytes() - before) / ROWS;
      long value = HeapCost.byteArray(VALUE_BYTES);
      // The counter's own reads allocate a little (under a byte per Get here): a key (32 bytes) or
      // a block (40) per Get is far beyond the slack.
      assertTrue(perGet <= value + 8, "a Get allocated " + perGet + " bytes, its value " + value);
    } finally {
      cache.close();
    }
  }

  /**
   * A Get that misses its data block reads and parses the block in its thread's buffers and offers
   * it to the cache: through a cache that keeps data blocks off the heap it allocates its value and
   * nothing else (no loader, cache key, handle, loading node or future, buffer wrapper, nor an array
   * of the block's size); through a heap cache, its value and the block the cache admits (its array,
   * its {@code Block} and the cache's node for it). Blocks are stored uncompressed here, so the bytes
   * read say how large the admitted blocks are.
   */
  @ParameterizedTest(name = "offHeap={0}")
  @ValueSource(booleans = {false, true})
  void missedGet_allocatesOnlyTheValueAndWhatTheCacheKeeps(boolean offHeap) throws IOException {
    Path file = writeRows(uncompressed(TableOptions.DEFAULT_BLOCK_SIZE_BYTES, FilterType.ROW));
    // Room for the table's metadata and a few of its data blocks: Gets striding over them miss.
    ClockBlockCache cache = new ClockBlockCache(64 << 10, 1, offHeap);
    try (TableReader t = TableReader.open(file, 1, cache)) {
      byte[][] rows = strided();
      getAll(t, rows, 3); // warms the path up
      long missesBefore = cache.stats().data().misses();
      TableReadStats readBefore = t.counters().snapshot();
      long before = allocatedBytes();
      getAll(t, rows, 1);
      long allocated = allocatedBytes() - before;
      TableReadStats read = t.counters().snapshot().minus(readBefore);
      long misses = cache.stats().data().misses() - missesBefore;
      assertTrue(misses > ROWS * 9L / 10, "the Gets missed " + misses + " times of " + ROWS);
      assertEquals(misses, read.dataBlocksRead());
      long values = ROWS * HeapCost.byteArray(VALUE_BYTES);
      long kept = offHeap ? 0 : keptOnHeap(read, misses);
      // The counter's own reads allocate a little (under a byte per Get here): any object per miss
      // besides those (a 16-byte checksum state, a 24-byte handle or loader) is beyond the slack.
      assertTrue(allocated <= values + kept + ROWS * 8L,
          "the missed Gets allocated " + allocated / ROWS + " bytes each, values and kept blocks "
              + (values + kept) / ROWS);
    } finally {
      cache.close();
    }
  }

  /**
   * The same for a batch ({@link TableReader#getAll}): 64 present cells in distinct blocks
   * allocate their values and nothing per block, off-heap blocks being copied into the batch's
   * reusable blocks.
   */
  @ParameterizedTest(name = "offHeap={0}")
  @ValueSource(booleans = {false, true})
  void cachedPresentBatch_allocatesOnlyTheValues(boolean offHeap) throws IOException {
    Path file = writeRows();
    int batch = 64;
    FilterProbe[] probes = new FilterProbe[batch];
    CellLookup[] out = new CellLookup[batch];
    fill(probes, out);
    ClockBlockCache cache = new ClockBlockCache(64 << 20, 4, offHeap);
    try (TableReader t = TableReader.open(file, 1, cache)) {
      byte[][] rows = new byte[ROWS][];
      for (int i = 0; i < ROWS; i++) {
        rows[i] = row(i);
      }
      int batches = ROWS / batch;
      long before = 0;
      for (int pass = 0; pass < 4; pass++) { // loads every block, warms the path up, then counts
        if (pass == 3) {
          before = allocatedBytes();
        }
        for (int b = 0; b < batches; b++) {
          for (int k = 0; k < batch; k++) { // rows b, b + batches, ...: ascending, a block each
            probes[k].aim(rows[b + k * batches], EMPTY);
          }
          t.getAll(probes, batch, InternalKey.MAX_SEQUENCE, out);
          for (int k = 0; k < batch; k++) {
            assertEquals(VALUE_BYTES, out[k].takeValue().length);
          }
        }
      }
      long perBatch = (allocatedBytes() - before) / batches;
      long values = batch * HeapCost.byteArray(VALUE_BYTES);
      // A block copied into a new array per distinct block would add 64 x 4 KiB per batch.
      assertTrue(perBatch <= values + 64, "a batch allocated " + perBatch + " bytes, its values " + values);
    } finally {
      cache.close();
    }
  }

  /**
   * A Get that misses its index partition as well as its data block reads both in its thread's
   * buffers (the partition in buffers of its own, so that it stays whole while the data block is
   * read) and offers them to the cache: through a cache that keeps neither, it allocates its value
   * and nothing else, no loader, loading node, future, handle or array of the partition's size.
   * Small blocks make small partitions, about 250 of them; no filter, so only the index and the
   * data blocks are read.
   */
  @ParameterizedTest(name = "offHeap={0}")
  @ValueSource(booleans = {false, true})
  void missedPartitionGet_allocatesOnlyTheValue(boolean offHeap) throws IOException {
    Path file = writeRows(uncompressed(256, FilterType.NONE));
    ClockBlockCache cache = new ClockBlockCache(256, 1, offHeap); // room for no block
    try (TableReader t = TableReader.open(file, 1, cache)) {
      byte[][] rows = strided();
      getAll(t, rows, 3); // warms the path up
      long indexMissesBefore = cache.stats().index().misses();
      long before = allocatedBytes();
      getAll(t, rows, 1);
      long allocated = allocatedBytes() - before;
      long indexMisses = cache.stats().index().misses() - indexMissesBefore;
      assertEquals(ROWS, indexMisses, "every Get missed its partition");
      long values = ROWS * HeapCost.byteArray(VALUE_BYTES);
      assertTrue(allocated <= values + ROWS * 8L,
          "the missed Gets allocated " + allocated / ROWS + " bytes each, their values " + values / ROWS);
    } finally {
      cache.close();
    }
  }

  /**
   * Through a cache that keeps index partitions off the heap, a Get that misses its partition (and
   * the cache then keeps it) and a Get that hits it there allocate their values and nothing else:
   * the kept partition is copied into the cache's slots, not into a heap block, and a hit copies it
   * into the thread's reusable partition. The table's blocks are evicted each round, so its first
   * pass misses every partition; the last round, its code warm, is counted. Small blocks make small partitions, about
   * 70 of them; no filter, so only the index and the data blocks are read.
   */
  @Test
  void offHeapPartitionMissAndHit_allocateOnlyTheValue() throws IOException {
    Path file = writeRows(uncompressed(256, FilterType.NONE));
    byte[][] rows = strided();
    byte[][] sparse = new byte[ROWS / 100][]; // a row every 100: about one Get per partition
    for (int i = 0; i < sparse.length; i++) {
      sparse[i] = row(i * 100L);
    }
    long value = HeapCost.byteArray(VALUE_BYTES);
    ClockBlockCache cache = new ClockBlockCache(64 << 20, 1, true);
    try (TableReader t = TableReader.open(file, 1, cache)) {
      for (int round = 0; round < 4; round++) {
        cache.evictFiles(Set.of(1L)); // every partition missed again; the cache's own arrays stay grown
        long indexMissesBefore = cache.stats().index().misses();
        long before = allocatedBytes();
        getAll(t, sparse, 1);
        long missed = allocatedBytes() - before;
        long indexMisses = cache.stats().index().misses() - indexMissesBefore;
        getAll(t, rows, 1); // every partition cached
        long indexHitsBefore = cache.stats().index().hits();
        before = allocatedBytes();
        getAll(t, rows, 1);
        long hit = allocatedBytes() - before;
        long indexHits = cache.stats().index().hits() - indexHitsBefore;
        if (round < 3) {
          continue; // warms the paths up and grows the cache's entries and slabs
        }
        assertEquals(sparse.length, indexMisses, "each sparse Get missed its partition");
        assertEquals(ROWS, indexHits, "every Get of the last pass hit its partition");
        // A heap copy of a partition kept (its array, block and node) is hundreds of bytes a Get;
        // the slack covers the counter's reads and the cache's lazily made bookkeeping.
        assertTrue(missed <= sparse.length * (value + 32), "the Gets missing partitions allocated "
            + missed / sparse.length + " bytes each, their values " + value);
        assertTrue(hit <= ROWS * (value + 8),
            "the Gets hitting partitions allocated " + hit / ROWS + " bytes each, their values " + value);
      }
    } finally {
      cache.close();
    }
  }

  /**
   * A batch ({@link TableReader#getAll}) whose data blocks miss reads each in its thread's buffers,
   * offers it to the cache and keeps it in one of the batch's reusable blocks: through a cache
   * that keeps data blocks off the heap it allocates its values and nothing per block; through a
   * heap cache, its values and the blocks the cache admits.
   */
  @ParameterizedTest(name = "offHeap={0}")
  @ValueSource(booleans = {false, true})
  void missedBatch_allocatesOnlyTheValuesAndWhatTheCacheKeeps(boolean offHeap) throws IOException {
    Path file = writeRows(uncompressed(TableOptions.DEFAULT_BLOCK_SIZE_BYTES, FilterType.ROW));
    int batch = 64;
    FilterProbe[] probes = new FilterProbe[batch];
    CellLookup[] out = new CellLookup[batch];
    fill(probes, out);
    ClockBlockCache cache = new ClockBlockCache(64 << 10, 1, offHeap); // the metadata and a few data blocks
    try (TableReader t = TableReader.open(file, 1, cache)) {
      byte[][] rows = new byte[ROWS][];
      for (int i = 0; i < ROWS; i++) {
        rows[i] = row(i);
      }
      int batches = ROWS / batch;
      long before = 0;
      long missesBefore = 0;
      TableReadStats readBefore = null;
      for (int pass = 0; pass < 4; pass++) { // warms the path up, then counts
        if (pass == 3) {
          missesBefore = cache.stats().data().misses();
          readBefore = t.counters().snapshot();
          before = allocatedBytes();
        }
        for (int b = 0; b < batches; b++) {
          for (int k = 0; k < batch; k++) { // rows b, b + batches, ...: ascending, a block each
            probes[k].aim(rows[b + k * batches], EMPTY);
          }
          t.getAll(probes, batch, InternalKey.MAX_SEQUENCE, out);
          for (int k = 0; k < batch; k++) {
            out[k].takeValue();
          }
        }
      }
      long allocated = allocatedBytes() - before;
      TableReadStats read = t.counters().snapshot().minus(readBefore);
      long misses = cache.stats().data().misses() - missesBefore;
      long gets = (long) batches * batch;
      assertTrue(misses > gets / 2, "the batches missed " + misses + " times of " + gets);
      long values = gets * HeapCost.byteArray(VALUE_BYTES);
      long kept = offHeap ? 0 : keptOnHeap(read, misses);
      assertTrue(allocated <= values + kept + gets * 8L,
          "the missed batches allocated " + allocated / gets + " bytes a Get, values and kept blocks "
              + (values + kept) / gets);
    } finally {
      cache.close();
    }
  }
}
