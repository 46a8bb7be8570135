package dev.strata.engine.memtable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.engine.read.Verdict;
import dev.strata.sstable.GetResult;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.ValueKind;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

final class MemTableTest {

  private static final byte[] EMPTY = new byte[0];

  private static byte[] b(String s) {
    return s.getBytes();
  }

  /** The views a flush reads (no key object, no value copy) hold the copies' bytes. */
  @Test
  void encodedKeyAndValueViews_holdWhatTheKeyAndValueCopiesHold() {
    long seed = System.nanoTime();
    java.util.Random r = new java.util.Random(seed);
    MemTable mem = new MemTable();
    for (long s = 1; s <= 3000; s++) {
      byte[] row = new byte[1 + r.nextInt(40)];
      r.nextBytes(row);
      byte[] column = new byte[r.nextInt(3) == 0 ? 0 : r.nextInt(20)];
      r.nextBytes(column);
      ValueKind kind = r.nextInt(4) == 0 ? ValueKind.DELETE : ValueKind.PUT;
      int valueBound = r.nextInt(10) == 0 ? 300_000 : 200; // some values get chunks of their own
      byte[] value = new byte[kind == ValueKind.PUT ? r.nextInt(valueBound) : 0];
      r.nextBytes(value);
      mem.add(new InternalKey(row, column, s, kind), value);
    }
    MemTableIterator it = mem.iterator();
    int entries = 0;
    byte[] buffer = new byte[128];
    for (it.seekToFirst(); it.isValid(); it.next(), entries++) {
      byte[] expectedKey = dev.strata.sstable.key.EncodedKeys.encode(it.key());
      assertEquals(expectedKey.length, it.encodedKeyLength(), "seed " + seed);
      if (buffer.length < it.encodedKeyLength()) {
        buffer = new byte[it.encodedKeyLength()];
      }
      it.encodeKey(buffer);
      assertArrayEquals(
          expectedKey, java.util.Arrays.copyOf(buffer, expectedKey.length), "seed " + seed);
      byte[] value = it.value();
      assertEquals(value.length, it.valueLength(), "seed " + seed);
      assertArrayEquals(value, java.util.Arrays.copyOfRange(it.valueArray(), it.valueOffset(),
          it.valueOffset() + it.valueLength()), "seed " + seed);
    }
    assertEquals(3000, entries);
  }

  @Test
  void get_newestVersionAtOrBelowTheSnapshotWins() {
    MemTable mem = new MemTable();
    mem.add(new InternalKey(b("r"), b("c"), 1, ValueKind.PUT), b("v1"));
    mem.add(new InternalKey(b("r"), b("c"), 3, ValueKind.PUT), b("v3"));
    mem.add(new InternalKey(b("r"), b("c"), 5, ValueKind.DELETE), EMPTY);
    assertEquals(Verdict.UNKNOWN, Verdict.of(mem.get(b("r"), b("c"), 0)));
    assertArrayEquals(b("v1"), mem.get(b("r"), b("c"), 2).value());
    assertArrayEquals(b("v3"), mem.get(b("r"), b("c"), 3).value());
    assertArrayEquals(b("v3"), mem.get(b("r"), b("c"), 4).value());
    assertEquals(Verdict.DELETED, Verdict.of(mem.get(b("r"), b("c"), 5)));
    assertEquals(Verdict.DELETED, Verdict.of(mem.get(b("r"), b("c"), Long.MAX_VALUE)));
    assertEquals(Verdict.UNKNOWN, Verdict.of(mem.get(b("r"), b("d"), 9)));
    assertEquals(Verdict.UNKNOWN, Verdict.of(mem.get(b("rr"), b("c"), 9)));
  }

  @Test
  void get_rowTombstoneHidesOlderCellsOfTheRowOnly() {
    MemTable mem = new MemTable();
    mem.add(new InternalKey(b("r"), b("c"), 1, ValueKind.PUT), b("old"));
    mem.add(new InternalKey(b("r"), EMPTY, 2, ValueKind.PUT), b("kv"));
    mem.add(new InternalKey(b("r"), EMPTY, 3, ValueKind.DELETE_ROW), EMPTY);
    mem.add(new InternalKey(b("r"), b("d"), 4, ValueKind.PUT), b("new"));
    // Many later versions of the empty column must not hide the tombstone from the lookup.
    for (long s = 5; s < 100; s++) {
      mem.add(new InternalKey(b("r"), EMPTY, s, ValueKind.PUT), b("kv" + s));
    }
    GetResult c = mem.get(b("r"), b("c"), 200);
    assertEquals(3, c.rowTombstoneSequence());
    assertEquals(Verdict.DELETED, Verdict.of(c));
    assertArrayEquals(b("new"), mem.get(b("r"), b("d"), 200).value());
    assertArrayEquals(b("old"), mem.get(b("r"), b("c"), 2).value());
    assertArrayEquals(b("kv99"), mem.get(b("r"), EMPTY, 200).value());
    GetResult kvAtTombstone = mem.get(b("r"), EMPTY, 3);
    assertEquals(ValueKind.DELETE_ROW, kvAtTombstone.cell().kind());
    assertEquals(Verdict.DELETED, Verdict.of(kvAtTombstone));
    assertNull(mem.newestRowTombstone(b("r"), 2));
    assertNull(mem.newestRowTombstone(b("q"), 200));
  }

  @Test
  void add_afterFreeze_throwsAndTheContentStaysReadable() {
    MemTable mem = new MemTable();
    InternalKey k = new InternalKey(b("r"), b("c"), 1, ValueKind.PUT);
    mem.add(k, b("v"));
    assertFalse(mem.isFrozen());
    mem.freeze();
    mem.freeze();
    assertTrue(mem.isFrozen());
    assertThrows(
        IllegalStateException.class,
        () -> mem.add(new InternalKey(b("r"), b("c"), 2, ValueKind.PUT), b("w")));
    assertArrayEquals(b("v"), mem.get(b("r"), b("c"), 5).value());
    assertEquals(1, mem.entryCount());
  }

  @Test
  void approximateBytes_chargesEachEntrysBytesHeaderAndIndexNode() {
    MemTable mem = new MemTable();
    assertTrue(mem.isEmpty());
    assertEquals(0, mem.approximateBytes());
    assertEquals(-1, mem.smallestSequence());
    mem.add(new InternalKey(b("row"), b("col"), 7, ValueKind.PUT), new byte[1000]);
    long entry = MemTable.ENTRY_HEADER_BYTES + 3 + 3 + 1000;
    long first = mem.approximateBytes();
    assertTrue(first >= entry + 24 && first <= entry + 8 * 14, "charged " + first);
    mem.add(new InternalKey(b("row"), EMPTY, 8, ValueKind.DELETE_ROW), EMPTY);
    long second = mem.approximateBytes() - first;
    long tombstone = MemTable.ENTRY_HEADER_BYTES + 3 + MemTable.ROW_TOMBSTONE_OVERHEAD_BYTES + 3;
    assertTrue(second >= tombstone + 24 && second <= tombstone + 8 * 14, "charged " + second);
    assertEquals(7, mem.smallestSequence());
    assertEquals(8, mem.largestSequence());
  }

  /**
   * The point of the arena: at dbbench's shape (16-byte keys, 100-byte values) a memtable charged
   * its budget holds over two thirds payload (each entry's header, and its node with the entry's
   * address, about 51 bytes), where one object graph per entry held about half; and the memory it
   * really holds stays within a chunk or two of what it charges.
   */
  @Test
  void approximateBytes_isMostlyPayloadAndHonestAboutWhatIsHeld() {
    MemTable mem = new MemTable();
    byte[] value = new byte[100];
    long payload = 0;
    java.util.Random r = new java.util.Random(7);
    long budget = 8 << 20;
    for (long s = 1; mem.approximateBytes() < budget; s++) {
      byte[] key = new byte[16];
      r.nextBytes(key);
      mem.add(new InternalKey(key, EMPTY, s, ValueKind.PUT), value);
      payload += key.length + value.length;
    }
    double share = (double) payload / mem.approximateBytes();
    assertTrue(share > 0.68, "payload share " + share);
    assertTrue(mem.bytesHeld() >= mem.approximateBytes(), mem.bytesHeld() + " held");
    assertTrue(mem.bytesHeld() <= mem.approximateBytes() + (3 << 20), mem.bytesHeld() + " held");
  }

  @Test
  void aValueLargerThanAChunkRoundTrips() {
    MemTable mem = new MemTable();
    byte[] big = new byte[3 << 20];
    new java.util.Random(3).nextBytes(big);
    mem.add(new InternalKey(b("a"), EMPTY, 1, ValueKind.PUT), b("small"));
    mem.add(new InternalKey(b("b"), EMPTY, 2, ValueKind.PUT), big);
    mem.add(new InternalKey(b("c"), EMPTY, 3, ValueKind.PUT), b("after"));
    assertArrayEquals(big, mem.get(b("b"), EMPTY, 5).value());
    assertArrayEquals(b("small"), mem.get(b("a"), EMPTY, 5).value());
    assertArrayEquals(b("after"), mem.get(b("c"), EMPTY, 5).value());
    assertTrue(mem.approximateBytes() >= big.length);
  }

  @Test
  void iterator_unpositioned_throws() {
    MemTableIterator it = new MemTable().iterator();
    it.seekToFirst();
    assertFalse(it.isValid());
    assertThrows(NoSuchElementException.class, it::key);
    assertThrows(NoSuchElementException.class, it::next);
  }

  @Test
  void add_fromManyThreads_keepsEveryEntryAndReadersNeverSeeDisorder() throws Exception {
    MemTable mem = new MemTable();
    int threads = 4;
    int perThread = 5_000;
    CountDownLatch start = new CountDownLatch(1);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int id = t;
      workers.add(
          new Thread(
              () -> {
                try {
                  start.await();
                  for (int i = 0; i < perThread; i++) {
                    long sequence = 1 + (long) i * threads + id;
                    byte[] row = {(byte) (i % 50)};
                    mem.add(
                        new InternalKey(row, new byte[] {(byte) id}, sequence, ValueKind.PUT), row);
                  }
                } catch (Throwable e) {
                  failure.compareAndSet(null, e);
                }
              },
              "memtable-writer-" + t));
    }
    Thread reader =
        new Thread(
            () -> {
              try {
                start.await();
                for (int pass = 0; pass < 20; pass++) {
                  try (MemTableIterator it = mem.iterator()) {
                    InternalKey previous = null;
                    for (it.seekToFirst(); it.isValid(); it.next()) {
                      if (previous != null && InternalKey.compare(previous, it.key()) >= 0) {
                        throw new AssertionError(previous + " before " + it.key());
                      }
                      previous = it.key();
                    }
                  }
                }
              } catch (Throwable e) {
                failure.compareAndSet(null, e);
              }
            },
            "memtable-reader");
    workers.forEach(Thread::start);
    reader.start();
    start.countDown();
    for (Thread w : workers) {
      w.join();
    }
    reader.join();
    if (failure.get() != null) {
      throw new AssertionError(failure.get());
    }
    assertEquals((long) threads * perThread, mem.entryCount());
    assertEquals((long) threads * perThread, mem.largestSequence());
    assertEquals(1, mem.smallestSequence());
    for (int id = 0; id < threads; id++) {
      long newest = (long) (perThread - 1) * threads + id + 1;
      byte[] row = {(byte) ((perThread - 1) % 50)};
      assertEquals(newest, mem.get(row, new byte[] {(byte) id}, Long.MAX_VALUE).cell().sequence());
    }
  }

  /**
   * The engine's contract: one writer adds and then publishes a sequence number; readers at any
   * published sequence find every entry up to it, whole (its value bytes intact), in order, while
   * the writer goes on filling new arena chunks and node chunks.
   */
  @Test
  void readersSeeEveryPublishedEntryWholeWhileOneWriterAdds() throws Exception {
    MemTable mem = new MemTable();
    int entries = 30_000;
    java.util.concurrent.atomic.AtomicLong published = new java.util.concurrent.atomic.AtomicLong();
    java.util.concurrent.atomic.AtomicBoolean writing =
        new java.util.concurrent.atomic.AtomicBoolean(true);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> readers = new ArrayList<>();
    for (int t = 0; t < 2; t++) {
      int id = t;
      readers.add(
          new Thread(
              () -> {
                java.util.Random r = new java.util.Random(id);
                try {
                  while (writing.get() && failure.get() == null) {
                    long snapshot = published.get();
                    long seen = 0;
                    InternalKey previous = null;
                    try (MemTableIterator it = mem.iterator()) {
                      for (it.seekToFirst(); it.isValid(); it.next()) {
                        InternalKey k = it.key();
                        if (previous != null && InternalKey.compare(previous, k) >= 0) {
                          throw new AssertionError(previous + " before " + k);
                        }
                        assertArrayEquals(valueOf(k.sequence()), it.value(), k.toString());
                        seen += k.sequence() <= snapshot ? 1 : 0;
                        previous = k;
                      }
                    }
                    assertTrue(seen >= snapshot, "saw " + seen + " of " + snapshot + " published");
                    if (snapshot > 0) {
                      long s = 1 + r.nextInt((int) snapshot);
                      GetResult hit = mem.get(rowOf(s), EMPTY, snapshot);
                      assertEquals(s, hit.cell().sequence());
                      assertArrayEquals(valueOf(s), hit.value());
                    }
                  }
                } catch (Throwable e) {
                  failure.compareAndSet(null, e);
                }
              },
              "memtable-reader-" + t));
    }
    readers.forEach(Thread::start);
    try {
      for (long s = 1; s <= entries && failure.get() == null; s++) {
        mem.add(new InternalKey(rowOf(s), EMPTY, s, ValueKind.PUT), valueOf(s));
        published.set(s);
      }
    } finally {
      writing.set(false);
      for (Thread t : readers) {
        t.join();
      }
    }
    if (failure.get() != null) {
      throw new AssertionError(failure.get());
    }
    assertEquals(entries, mem.entryCount());
  }

  /** Distinct rows in an order unrelated to the sequence (a multiplicative permutation). */
  private static byte[] rowOf(long sequence) {
    return Long.toString(sequence * 7919 % 1_000_003).getBytes();
  }

  /** A value whose bytes and length say which entry it belongs to: 0 to 299 copies of one byte. */
  private static byte[] valueOf(long sequence) {
    byte[] v = new byte[(int) (sequence % 300)];
    java.util.Arrays.fill(v, (byte) sequence);
    return v;
  }

  @Test
  void aBudgetAtItsBound_makesAFilterOfBoundedSize_andTheMemtableWorks() {
    MemTable mem = new MemTable(Long.MAX_VALUE);
    assertTrue(mem.bytesHeld() < 32L << 20, "held " + mem.bytesHeld());
    mem.add(ValueKind.PUT, new byte[] {7}, new byte[0], 1, new byte[] {42});
    assertArrayEquals(new byte[] {42}, mem.get(new byte[] {7}, new byte[0], 1).value());
    assertTrue(mem.get(new byte[] {8}, new byte[0], 1).isAbsent());
  }
}
