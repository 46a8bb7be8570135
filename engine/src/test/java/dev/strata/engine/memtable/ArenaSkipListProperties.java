package dev.strata.engine.memtable;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.sstable.GetResult;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.UnsignedBytes;
import dev.strata.sstable.key.ValueKind;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The skip list's row prefixes: a search decides by the fifteen-byte prefix in a node ({@link
 * RowPrefix}) whenever the prefixes differ, which is right only if differing prefixes order as the
 * rows do. Rows here are 0 to 20 bytes ({@link SharedPrefixRows}), so they share prefixes, end
 * inside and beyond each prefix word, differ only after byte 8 or 15, and hold zero bytes that
 * meet the prefix's zero padding. Iterators that run beside the writer check the list's
 * concurrency on the same rows.
 */
final class ArenaSkipListProperties {
  private static byte[] row(Random r, int minLength) {
    return SharedPrefixRows.next(r, minLength, SharedPrefixRows.MAX_BYTES);
  }

  @Test
  void differingPrefixes_orderAsTheirRows() {
    long seed = System.nanoTime();
    System.out.println("differingPrefixes_orderAsTheirRows seed " + seed);
    Random r = new Random(seed);
    for (int i = 0; i < 200_000; i++) {
      byte[] a = row(r, 0);
      byte[] b = r.nextInt(4) == 0 ? a.clone() : row(r, 0);
      int prefixes = Integer.signum(RowPrefix.compare(RowPrefix.high(a, 0, a.length),
          RowPrefix.low(a, 0, a.length), RowPrefix.high(b, 0, b.length),
          RowPrefix.low(b, 0, b.length)));
      int rows = Integer.signum(UnsignedBytes.compare(a, b));
      String what = "seed " + seed + ": prefixes of rows " + HexFormat.of().formatHex(a) + " and "
          + HexFormat.of().formatHex(b);
      assertEquals(0, RowPrefix.low(a, 0, a.length) & ~RowPrefix.LOW_BITS, what);
      if (prefixes != 0) {
        assertEquals(rows, prefixes, what);
      } else if (a.length <= RowPrefix.BYTES && b.length <= RowPrefix.BYTES && rows != 0) {
        // Equal prefixes of short rows that differ: one is the other plus zero bytes.
        assertTrue(a.length != b.length, what);
      }
    }
  }

  @Test
  void getsAndIteration_matchAModel_overRowsSharingPrefixes() {
    long seed = System.nanoTime();
    System.out.println("getsAndIteration_matchAModel seed " + seed);
    Random r = new Random(seed);
    for (int round = 0; round < 40; round++) {
      MemTable mem = new MemTable();
      TreeMap<InternalKey, byte[]> model = new TreeMap<>(InternalKey.ORDER);
      int entries = 1 + r.nextInt(3_000);
      // Keys go in as runs sorted by key (a run of 1: random order), so inserts take both the
      // search from the head and the splice the previous insert left.
      int run = r.nextBoolean() ? 1 : 1 + r.nextInt(600);
      for (long seq = 1; seq <= entries; ) {
        List<InternalKey> keys = new ArrayList<>();
        for (int i = 0; i < run && seq <= entries; i++, seq++) {
          keys.add(new InternalKey(row(r, 1), r.nextBoolean() ? new byte[0] : row(r, 0), seq,
              ValueKind.PUT));
        }
        keys.sort(InternalKey.ORDER);
        for (InternalKey k : keys) {
          byte[] value = new byte[] {(byte) k.sequence(), (byte) (k.sequence() >>> 8)};
          mem.add(ValueKind.PUT, k.row(), k.column(), k.sequence(), value);
          model.put(k, value);
        }
      }
      String what = "seed " + seed + " round " + round + " run " + run;
      try (MemTableIterator it = mem.iterator()) {
        ModelWalk.assertWalksAs(model, it, what);
        for (int q = 0; q < 200; q++) {
          InternalKey target =
              new InternalKey(row(r, 1), new byte[0], r.nextInt(entries + 2), ValueKind.PUT);
          it.seek(target);
          InternalKey expected = model.ceilingKey(target);
          assertEquals(expected == null, !it.isValid(), what);
          if (expected != null) {
            assertEquals(0, InternalKey.ORDER.compare(expected, it.key()), what);
          }
        }
      }
      for (int q = 0; q < 300; q++) {
        byte[] row = row(r, 1);
        byte[] column = r.nextBoolean() ? new byte[0] : row(r, 0);
        InternalKey newest = model.ceilingKey(
            new InternalKey(row, column, InternalKey.MAX_SEQUENCE, ValueKind.PUT));
        GetResult hit = mem.get(row, column, InternalKey.MAX_SEQUENCE);
        boolean present = newest != null && UnsignedBytes.compare(newest.row(), row) == 0
            && UnsignedBytes.compare(newest.column(), column) == 0;
        assertEquals(present, hit.value() != null, what);
        if (present) {
          assertArrayEquals(model.get(newest), hit.value(), what);
        }
      }
      mem.release();
    }
  }

  /**
   * Readers iterate while the one writer inserts (the memtable's concurrency contract): every pass
   * is in strictly ascending order, returns only whole entries (each value names its key's
   * sequence), and sees at least the entries counted before it was positioned.
   */
  @Test
  void iterators_whileAWriterInserts_areOrderedWholeAndMissNothingPublished() throws Exception {
    long seed = System.nanoTime();
    System.out.println("iterators_whileAWriterInserts seed " + seed);
    MemTable mem = new MemTable(8L << 20, MemTableMemory.pooled(8L << 20));
    int entries = 60_000;
    AtomicBoolean done = new AtomicBoolean();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread writer = new Thread(() -> {
      Random r = new Random(seed);
      try {
        for (long seq = 1; seq <= entries; seq++) {
          byte[] row = row(r, 1);
          mem.add(ValueKind.PUT, row, new byte[0], seq, Long.toString(seq).getBytes(UTF_8));
        }
      } catch (Throwable t) {
        failure.compareAndSet(null, t);
      } finally {
        done.set(true);
      }
    });
    Runnable reader = () -> {
      try {
        int passes = 0;
        while (!done.get() || passes < 2) {
          passes++;
          long published = mem.entryCount();
          long seen = 0;
          InternalKey previous = null;
          try (MemTableIterator it = mem.iterator()) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
              InternalKey key = it.key();
              if (previous != null && InternalKey.ORDER.compare(previous, key) >= 0) {
                throw new AssertionError("seed " + seed + ": " + previous + " then " + key);
              }
              assertEquals(Long.toString(key.sequence()), new String(it.value(), UTF_8),
                  "seed " + seed);
              previous = key;
              seen++;
            }
          }
          assertTrue(seen >= published, "seed " + seed + ": saw " + seen + " of " + published);
        }
      } catch (Throwable t) {
        failure.compareAndSet(null, t);
      }
    };
    Thread first = new Thread(reader);
    Thread second = new Thread(reader);
    writer.start();
    first.start();
    second.start();
    writer.join();
    first.join();
    second.join();
    if (failure.get() != null) {
      throw new AssertionError("seed " + seed, failure.get());
    }
    assertEquals(entries, mem.entryCount());
    mem.release();
  }
}
