package dev.strata.engine.version;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.engine.memtable.MemTable;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@link StripedReaders} and the Gets of a {@link ReadView}: closed, no read enters; idle only once
 * the last read inside has left; a view's version goes once, after its last reference and Get.
 */
final class StripedReadersTest {

  @Test
  void close_refusesNewReads_andIsIdleOnlyWhenTheLastLeft() {
    StripedReaders r = new StripedReaders();
    assertTrue(r.tryEnter());
    assertTrue(r.tryEnter());
    r.close();
    assertFalse(r.tryEnter(), "closed: no read enters");
    assertFalse(r.idle());
    assertTrue(r.leave(), "leave reports the close");
    assertFalse(r.idle(), "one read still inside");
    r.leave();
    assertTrue(r.idle());
    r.reopen();
    assertTrue(r.tryEnter(), "reopened");
    assertFalse(r.leave());
  }

  @Test
  void stripes_sitALineAwayFromTheArrayEnds_andFromEachOther() {
    // The array's element 0 shares a cache line with its header and the object allocated before it,
    // which every reader thread reads; its last element with the object after it.
    int stripes = 8;
    int length = StripedReaders.arrayLength(stripes);
    for (int s = 0; s < stripes; s++) {
      int i = StripedReaders.slot(s);
      assertTrue(i >= 8, "stripe " + s + " at long " + i + ": within 64 bytes of the header");
      assertTrue(i + 8 < length, "stripe " + s + " at long " + i + " of " + length + ": no line after it");
      assertTrue(s == 0 || i - StripedReaders.slot(s - 1) >= 8, "stripes share a line");
    }
  }

  @Test
  void leave_withoutEnter_isCaughtByTheScan() {
    StripedReaders r = new StripedReaders();
    r.leave();
    r.close();
    assertThrows(IllegalStateException.class, r::idle);
  }

  @Test
  void readView_releasedWithAGetInside_keepsItsVersionUntilTheGetLeaves() {
    Version version = Version.empty();
    ReadView view = new ReadView(new MemTable(), List.of(), version);
    version.release(); // the view's reference is the only one left
    assertTrue(view.tryEnterGet());
    view.release();
    assertFalse(view.tryEnterGet(), "a released view admits no new Get");
    assertTrue(version.tryAcquire(), "the Get inside keeps the version");
    version.release();
    view.exitGet();
    assertFalse(version.tryAcquire(), "released once the Get left");
  }

  /**
   * Threads enter and leave in a loop while the main thread closes: the end never runs while a read
   * is inside, and runs exactly once.
   */
  @Test
  void concurrentReads_neverSeeTheEndWhileInside() throws Exception {
    for (int round = 0; round < 50; round++) {
      AtomicInteger ends = new AtomicInteger();
      AtomicBoolean ended = new AtomicBoolean();
      StripedReaders r = new StripedReaders();
      Runnable endIfIdle = () -> {
        if (r.idle() && ended.compareAndSet(false, true)) {
          ends.incrementAndGet();
        }
      };
      AtomicBoolean violation = new AtomicBoolean();
      CountDownLatch started = new CountDownLatch(4);
      List<Thread> threads = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        Thread th = new Thread(() -> {
          started.countDown();
          for (int i = 0; i < 20_000; i++) {
            if (r.tryEnter()) {
              if (ended.get()) {
                violation.set(true);
              }
              if (r.leave()) {
                endIfIdle.run();
              }
            } else {
              endIfIdle.run(); // a refused read may have been seen inside by a scan
            }
          }
        });
        threads.add(th);
        th.start();
      }
      started.await();
      r.close();
      endIfIdle.run();
      for (Thread th : threads) {
        th.join();
      }
      assertFalse(violation.get(), "a read was inside after the end, round " + round);
      assertEquals(1, ends.get(), "round " + round);
    }
  }
}
