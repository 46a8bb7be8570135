package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The memtables' direct memory in a database: reused from memtable to memtable, bounded, kept
 * for as long as a read holds a memtable (however many flushes later), and freed at close. A chunk
 * given back while a read still used it would show here as a wrong value (reused memory), poison
 * (under assertions) or a crash (freed memory).
 */
final class MemTableMemoryDbTest {
  private static final long MEMTABLE_BYTES = 256 << 10;

  @TempDir Path dir;

  private static DbOptions options() {
    return DbOptions.builder().memtableBytes(MEMTABLE_BYTES).blockCacheBytes(1 << 20).build();
  }

  private static byte[] key(int i) {
    return String.format("key-%07d", i).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] value(int i, int generation) {
    return ("value-" + i + "-" + generation + "-" + "v".repeat(i % 97))
        .getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void manyFlushes_reuseTheMemory_andCloseFreesIt() throws IOException {
    Db db = Db.open(dir, options());
    long most = 0;
    for (int i = 0; i < 60_000; i++) { // about 40 memtables
      db.put(key(i), value(i, 0));
      most = Math.max(most, db.seams().memTableDirectBytes());
    }
    // The memtable, two frozen ones and the pool's memtable, with chunk tails: never a memtable
    // per flush.
    assertTrue(most <= 5 * MEMTABLE_BYTES, "memtables held " + most + " bytes at most");
    db.close();
    assertEquals(0, db.seams().memTableDirectBytes(), "close frees every chunk");
  }

  @Test
  void aCursor_keepsItsMemTablesMemory_acrossFlushes_andGivesItBackWhenClosed() throws IOException {
    try (Db db = Db.open(dir, options())) {
      for (int i = 0; i < 1_000; i++) {
        db.put(key(i), value(i, 0));
      }
      CellCursor cursor = db.cursor(); // holds the memtable of these 1,000 puts
      for (int g = 1; g <= 5; g++) { // each generation overwrites them through several memtables
        for (int i = 0; i < 1_000; i++) {
          db.put(key(i), value(i, g));
        }
        db.flush();
      }
      int seen = 0;
      for (cursor.seekToFirst(); cursor.isValid(); cursor.next()) {
        assertArrayEquals(value(seen, 0), cursor.value(), "entry " + seen);
        seen++;
      }
      assertEquals(1_000, seen);
      long held = db.seams().memTableDirectBytes();
      cursor.close();
      db.flush();
      assertTrue(db.seams().memTableDirectBytes() <= held, "the cursor's memtable went back");
      for (int i = 0; i < 1_000; i++) {
        assertArrayEquals(value(i, 5), db.get(key(i)));
      }
    }
  }

  /**
   * Readers check every answer while the writer fills small memtables as fast as it can, so that
   * a flushed memtable's chunks are taken by the next one while reads of it may still be running.
   */
  @Test
  void readsDuringFlushes_seeOnlyTheirOwnMemTablesBytes() throws Exception {
    long seed = System.nanoTime();
    int keys = 4_000;
    try (Db db = Db.open(dir, options())) {
      for (int i = 0; i < keys; i++) {
        db.put(key(i), value(i, 0));
      }
      AtomicBoolean done = new AtomicBoolean();
      AtomicReference<Throwable> failure = new AtomicReference<>();
      List<Thread> readers = new ArrayList<>();
      for (int t = 0; t < 2; t++) {
        Random random = new Random(seed + t);
        Thread reader = new Thread(() -> {
          try {
            while (!done.get()) {
              checkRead(db, random, keys);
            }
          } catch (Throwable e) {
            failure.compareAndSet(null, e);
          }
        }, "reader-" + t);
        readers.add(reader);
        reader.start();
      }
      // Generations 1..30: a key's value is some generation's, never bytes of another key.
      for (int g = 1; g <= 30 && failure.get() == null; g++) {
        for (int i = 0; i < keys; i++) {
          db.put(key(i), value(i, g));
        }
      }
      done.set(true);
      for (Thread r : readers) {
        r.join();
      }
      if (failure.get() != null) {
        throw new AssertionError("seed " + seed, failure.get());
      }
    }
  }

  private static void checkRead(Db db, Random random, int keys) throws IOException {
    int i = random.nextInt(keys);
    if (random.nextBoolean()) {
      assertTrue(isSomeGeneration(i, db.get(key(i))), "get " + i);
      return;
    }
    try (CellCursor c = db.cursor()) {
      c.seek(key(i), new byte[0]);
      int n = 0;
      for (; n < 20 && c.isValid(); n++, c.next()) {
        assertArrayEquals(key(i + n), c.row(), "cursor from " + i);
        assertTrue(isSomeGeneration(i + n, c.value()), "cursor value " + (i + n));
      }
      assertEquals(Math.min(20, keys - i), n, "cells from " + i);
    }
  }

  private static boolean isSomeGeneration(int i, byte[] v) {
    if (v == null) {
      return false;
    }
    String s = new String(v, StandardCharsets.UTF_8);
    String prefix = "value-" + i + "-";
    if (!s.startsWith(prefix) || !s.endsWith("-" + "v".repeat(i % 97))) {
      return false;
    }
    String g = s.substring(prefix.length(), s.length() - 1 - i % 97);
    return g.chars().allMatch(Character::isDigit) && Integer.parseInt(g) <= 30;
  }

  @Test
  void aReadOnlyOpen_holdsTheReplayedLogsInMemory_andFreesThemAtClose() throws IOException {
    try (Db db = Db.open(dir, options())) {
      db.put(key(1), value(1, 0));
    }
    Db ro = Db.open(dir, DbOptions.builder().memtableBytes(MEMTABLE_BYTES).readOnly(true).build());
    assertArrayEquals(value(1, 0), ro.get(key(1)));
    assertNull(ro.get(key(2)));
    ro.close();
    assertEquals(0, ro.seams().memTableDirectBytes());
  }
}
