package dev.strata.sstable.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.sstable.testing.Seeded;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The shard's node table: it finds what was put and not removed, and a reader running while the
 * table grows and loses nodes never gets a node of another key (it may miss, which the cache
 * repeats under the lock).
 */
final class NodeTableTest {

  private static Node node(long file, long offset) {
    return new Node(file, offset, BlockKind.DATA);
  }

  private static Node get(NodeTable t, Node like) {
    return t.get(like.fileNumber, like.offset, like.hash());
  }

  @Test
  void findsWhatWasPut_throughGrowth_andNotWhatWasRemoved() {
    Seeded.run("node table", 5, random -> {
      NodeTable t = new NodeTable();
      List<Node> present = new ArrayList<>();
      List<Node> removed = new ArrayList<>();
      for (int i = 0; i < 20_000; i++) {
        if (!present.isEmpty() && random.nextInt(3) == 0) {
          Node n = present.remove(random.nextInt(present.size()));
          assertTrue(t.remove(n));
          removed.add(n);
        } else {
          Node n = node(random.nextInt(8), (long) i * 4096);
          t.put(n);
          present.add(n);
        }
      }
      assertEquals(present.size(), t.size());
      for (Node n : present) {
        assertSame(n, get(t, n));
      }
      for (Node n : removed) {
        assertNull(get(t, n));
        assertTrue(!t.remove(n), "removed twice");
      }
    });
  }

  @Test
  void concurrentReaders_neverGetAnotherKeysNode() throws Exception {
    NodeTable t = new NodeTable();
    int keys = 50_000;
    Node[] nodes = new Node[keys];
    for (int i = 0; i < keys; i++) {
      nodes[i] = node(i % 7, (long) i * 512);
    }
    AtomicBoolean done = new AtomicBoolean();
    AtomicLong found = new AtomicLong();
    List<Thread> readers = new ArrayList<>();
    List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
    for (int r = 0; r < 3; r++) {
      int seed = r;
      Thread th = new Thread(() -> {
        java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
        try {
          while (!done.get()) {
            Node want = nodes[random.nextInt(keys)];
            Node got = get(t, want);
            if (got != null) {
              assertTrue(got.fileNumber == want.fileNumber && got.offset == want.offset, "wrong node");
              found.incrementAndGet();
            }
          }
        } catch (Throwable e) {
          failures.add(e);
        }
      });
      th.start();
      readers.add(th);
    }
    synchronized (t) { // the shard's lock, for the writes' memory effects in this test
      for (int round = 0; round < 3; round++) { // a removed node is never put back: new ones
        Node[] made = new Node[keys];
        for (int i = 0; i < keys; i++) {
          made[i] = node(nodes[i].fileNumber, nodes[i].offset);
          t.put(made[i]);
        }
        for (Node n : made) {
          t.remove(n);
        }
      }
      for (Node n : nodes) {
        t.put(n);
      }
    }
    done.set(true);
    for (Thread th : readers) {
      th.join();
    }
    assertTrue(failures.isEmpty(), () -> failures.get(0).toString());
    for (Node n : nodes) {
      assertSame(n, get(t, n));
    }
  }
}
