package dev.strata.kafka;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store against a model (a TreeMap over unsigned bytes, as {@link Bytes} orders) under random
 * operations: every write kind, every read and iterator kind, iterators held across later writes
 * (they must not see them), and closes and reopens from the directory. Seeded; the seed is
 * printed and named in every failure.
 */
class StrataKeyValueStoreModelProperties {
  @TempDir Path dir;

  @Test
  void behavesAsASortedMap() {
    long seed = Long.getLong("strata.seed", System.nanoTime());
    System.out.println("StrataKeyValueStoreModelProperties seed " + seed
        + " (rerun with -Dstrata.seed=" + seed + ")");
    for (int round = 0; round < 4; round++) {
      run(seed + round, dir.resolve("r" + round));
    }
  }

  private void run(long seed, Path stateDir) {
    Random rnd = new Random(seed);
    NavigableMap<Bytes, byte[]> model = new TreeMap<>();
    KeyValueStore<Bytes, byte[]> store = Stores.open(stateDir, "model");
    String at = "seed " + seed;
    try {
      for (int step = 0; step < 3000; step++) {
        String where = at + " step " + step;
        Bytes k = key(rnd);
        int op = rnd.nextInt(100);
        if (op < 30) {
          byte[] v = value(rnd);
          store.put(k, v);
          model.put(k, v);
        } else if (op < 35) {
          store.put(k, null);
          model.remove(k);
        } else if (op < 40) {
          byte[] v = value(rnd);
          assertArrayEquals(model.get(k), store.putIfAbsent(k, v), where);
          model.putIfAbsent(k, v);
        } else if (op < 45) {
          List<KeyValue<Bytes, byte[]>> batch = new ArrayList<>();
          // A fifth are large enough for the engine to insert them sorted by key, as a restore.
          int size = rnd.nextInt(5) == 0 ? 64 + rnd.nextInt(200) : rnd.nextInt(8);
          for (int i = size; i >= 0; i--) {
            Bytes bk = key(rnd);
            byte[] bv = rnd.nextInt(4) == 0 ? null : value(rnd);
            batch.add(KeyValue.pair(bk, bv));
          }
          store.putAll(batch);
          batch.forEach(kv -> {
            if (kv.value == null) {
              model.remove(kv.key);
            } else {
              model.put(kv.key, kv.value);
            }
          });
        } else if (op < 52) {
          assertArrayEquals(model.remove(k), store.delete(k), where);
        } else if (op < 70) {
          assertArrayEquals(model.get(k), store.get(k), where);
        } else if (op < 78) {
          Bytes to = key(rnd);
          boolean reverse = rnd.nextBoolean();
          Map<Bytes, byte[]> expected = k.compareTo(to) > 0 ? Map.of()
              : model.subMap(k, true, to, true);
          try (KeyValueIterator<Bytes, byte[]> it =
                   reverse ? store.reverseRange(k, to) : store.range(k, to)) {
            check(expected, it, reverse, where + " range");
          }
        } else if (op < 82) {
          boolean reverse = rnd.nextBoolean();
          try (KeyValueIterator<Bytes, byte[]> it = reverse ? store.reverseAll() : store.all()) {
            check(model, it, reverse, where + " all");
          }
        } else if (op < 88) {
          String prefix = "k" + Integer.toString(rnd.nextInt(40), 36).substring(0, 1);
          NavigableMap<Bytes, byte[]> expected = new TreeMap<>();
          model.forEach((mk, mv) -> {
            if (new String(mk.get()).startsWith(prefix)) {
              expected.put(mk, mv);
            }
          });
          try (KeyValueIterator<Bytes, byte[]> it =
                   store.prefixScan(prefix, Serdes.String().serializer())) {
            check(expected, it, false, where + " prefix " + prefix);
          }
        } else if (op < 93) {
          // An iterator made now sees the store as it is now, whatever is written after.
          NavigableMap<Bytes, byte[]> before = new TreeMap<>(model);
          try (KeyValueIterator<Bytes, byte[]> it = store.all()) {
            for (int i = 0; i < 5; i++) {
              Bytes wk = key(rnd);
              byte[] wv = value(rnd);
              store.put(wk, wv);
              model.put(wk, wv);
            }
            store.delete(k);
            model.remove(k);
            check(before, it, false, where + " snapshot");
          }
        } else if (op < 96) {
          // An estimate, as RocksDB's: every live key counts at least once.
          long estimate = store.approximateNumEntries();
          assertTrue(estimate >= model.size(), where + ": " + estimate + " < " + model.size());
        } else if (op < 98) {
          store.flush();
        } else {
          store.close();
          store = Stores.open(stateDir, "model");
        }
      }
      try (KeyValueIterator<Bytes, byte[]> it = store.all()) {
        check(model, it, false, at + " end");
      }
    } finally {
      store.close();
    }
  }

  private static void check(Map<Bytes, byte[]> expected, KeyValueIterator<Bytes, byte[]> it,
      boolean reverse, String where) {
    List<Map.Entry<Bytes, byte[]>> want = new ArrayList<>(expected.entrySet());
    if (reverse) {
      Collections.reverse(want);
    }
    for (Map.Entry<Bytes, byte[]> e : want) {
      assertEquals(true, it.hasNext(), where + ": missing " + e.getKey());
      assertEquals(e.getKey(), it.peekNextKey(), where);
      KeyValue<Bytes, byte[]> kv = it.next();
      assertEquals(e.getKey(), kv.key, where);
      assertArrayEquals(e.getValue(), kv.value, where + " value of " + kv.key);
    }
    assertEquals(false, it.hasNext(), where + ": extra entries");
  }

  /**
   * Keys "k" plus up to two base-36 digits, the empty key, keys with high bytes, and keys of 5 to
   * 20 bytes sharing long prefixes ("key-", zeros, a number: rows that differ only after byte 8
   * or 15, where the memtable's row prefix stops deciding).
   */
  private static Bytes key(Random rnd) {
    int kind = rnd.nextInt(50);
    if (kind == 0) {
      return Bytes.wrap(new byte[0]);
    }
    if (kind == 1) {
      return Bytes.wrap(new byte[] {(byte) 0xff, (byte) rnd.nextInt(256)});
    }
    if (kind < 20) {
      return Bytes.wrap(("key-" + "0".repeat(rnd.nextInt(14)) + rnd.nextInt(300)).getBytes());
    }
    return Bytes.wrap(("k" + Integer.toString(rnd.nextInt(300), 36)).getBytes());
  }

  private static byte[] value(Random rnd) {
    byte[] v = new byte[rnd.nextInt(rnd.nextInt(10) == 0 ? 3000 : 40)];
    rnd.nextBytes(v);
    return v;
  }
}
