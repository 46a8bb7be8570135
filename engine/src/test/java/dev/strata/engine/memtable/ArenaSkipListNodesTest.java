package dev.strata.engine.memtable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.sstable.key.ValueKind;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The skip list's nodes are packed apart from the entries: what a search walks through is a few
 * dozen bytes per entry whatever the values weigh, so a search in a memtable of kilobyte values
 * stays in the processor's caches.
 */
final class ArenaSkipListNodesTest {
  @Test
  void nodeBytes_doNotGrowWithTheValues() {
    long small = nodeBytesPerEntry(8);
    long large = nodeBytesPerEntry(4096);
    assertEquals(small, large, "the nodes' bytes of the same keys and heights");
    // Three header words and four thirds of a next pointer on average.
    assertTrue(small >= 32 && small <= 40, "node bytes per entry: " + small);
  }

  @Test
  void entriesReadBackThroughTheirNodes() {
    try (MemTableMemory memory = MemTableMemory.pooled(1 << 20)) {
      ArenaSkipList list = new ArenaSkipList(memory);
      byte[] value = new byte[3000];
      for (int i = 999; i >= 0; i--) {
        value[0] = (byte) i;
        list.insert(row(i), new byte[0], i + 1, ValueKind.PUT, value);
      }
      int i = 0;
      for (long node = list.next(0); node != 0; node = list.next(node), i++) {
        long entry = list.entryOf(node);
        assertTrue(list.entries().sameCell(entry, row(i), new byte[0]), "row " + i);
        assertEquals((byte) i, list.entries().value(entry)[0], "value of row " + i);
      }
      assertEquals(1000, i);
      list.release();
    }
  }

  private static long nodeBytesPerEntry(int valueBytes) {
    try (MemTableMemory memory = MemTableMemory.pooled(64 << 20)) {
      ArenaSkipList list = new ArenaSkipList(memory);
      long empty = list.nodeBytesUsed();
      int n = 10_000;
      byte[] value = new byte[valueBytes];
      for (int i = 0; i < n; i++) {
        list.insert(row(i * 7919 % n), new byte[0], i + 1, ValueKind.PUT, value);
      }
      long perEntry = (list.nodeBytesUsed() - empty) / n;
      list.release();
      return perEntry;
    }
  }

  private static byte[] row(int i) {
    return String.format("row%08d", i).getBytes(StandardCharsets.US_ASCII);
  }
}
