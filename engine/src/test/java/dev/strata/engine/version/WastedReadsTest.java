package dev.strata.engine.version;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** {@link WastedReads}: fires once, after its budget and within its stride of it, on any thread. */
final class WastedReadsTest {
  @Test
  void charge_belowTheBudget_doesNotFire_andAtItFiresOnce() {
    AtomicInteger fired = new AtomicInteger();
    AtomicReference<WastedReads> passed = new AtomicReference<>();
    WastedReads reads =
        new WastedReads(
            100,
            w -> {
              fired.incrementAndGet();
              passed.set(w);
            });
    for (int i = 0; i < 99; i++) {
      reads.charge(1);
    }
    assertEquals(0, fired.get(), "99 of 100 charged");
    assertFalse(reads.spent());
    // One thread checks at every multiple of its stride (100 / 16 = 6): the first at or past 100.
    for (int i = 0; i < 6; i++) {
      reads.charge(1);
    }
    assertEquals(1, fired.get());
    assertSame(reads, passed.get());
    assertTrue(reads.spent());
    long total = reads.total();
    assertTrue(total >= 100 && total <= 106, "fired within a stride of the budget: " + total);
    for (int i = 0; i < 1000; i++) {
      reads.charge(3);
    }
    assertEquals(1, fired.get(), "never twice");
    assertEquals(total, reads.total(), "a spent budget counts nothing more");
  }

  @Test
  void charge_ofNothing_countsNothing() {
    WastedReads reads = new WastedReads(1, w -> {});
    reads.charge(0);
    assertEquals(0, reads.total());
    assertFalse(reads.spent());
    reads.charge(1);
    assertTrue(reads.spent());
  }

  @Test
  void none_neverFires_andCountsNothing() {
    WastedReads.NONE.charge(1_000_000);
    assertEquals(0, WastedReads.NONE.total());
    assertTrue(WastedReads.NONE.spent());
  }

  @Test
  void budget_belowOne_isRejected() {
    assertThrows(IllegalArgumentException.class, () -> new WastedReads(0, w -> {}));
  }

  @Test
  void charge_fromManyThreads_firesExactlyOnce_afterTheBudget() throws Exception {
    int threads = 8;
    int perThread = 10_000;
    long budget = 20_000;
    AtomicInteger fired = new AtomicInteger();
    AtomicReference<Long> totalWhenFired = new AtomicReference<>();
    WastedReads[] holder = new WastedReads[1];
    holder[0] =
        new WastedReads(
            budget,
            w -> {
              fired.incrementAndGet();
              totalWhenFired.set(w.total());
            });
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> all = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Thread th =
          new Thread(
              () -> {
                try {
                  start.await();
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                  return;
                }
                for (int i = 0; i < perThread; i++) {
                  holder[0].charge(1);
                }
              });
      th.start();
      all.add(th);
    }
    start.countDown();
    for (Thread th : all) {
      th.join();
    }
    assertEquals(1, fired.get(), "80,000 charges against a budget of 20,000 fire once");
    assertTrue(totalWhenFired.get() >= budget, "not before the budget: " + totalWhenFired.get());
  }
}
