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
 * {@link StripedRefCount} and the Gets of a {@link ReadView}: closed, no read enters; idle only once
 * the last read inside has left; a view's version goes once, after its last reference and Get.
 */
final class StripedRefCountTest {

  @Test
  void close_refusesNewReads_andIsIdleOnlyWhenTheLastLeft() {
    StripedRefCount r = new StripedRefCount();
    assertTrue(r.tryAcquire());
    assertTrue(r.tryAcquire());
    r.close();
    assertFalse(r.tryAcquire(), "closed: no read enters");
    assertFalse(r.idle());
    assertTrue(r.release(), "leave reports the close");
    assertFalse(r.idle(), "one read still inside");
    r.release();
    assertTrue(r.idle());
    r.reopen();
    assertTrue(r.tryAcquire(), "reopened");
    assertFalse(r.release());
  }

  @Test
  void stripes_sitALineAwayFromTheArrayEnds_andFromEachOther() {
    // The array's element 0 shares a cache line with its header and the object allocated before it,
    // which every reader thread reads; its last element with the object after it.
    int stripes = 8;
    int length = StripedRefCount.arrayLength(stripes);
    for (int s = 0; s < stripes; s++) {
      int i = StripedRefCount.slot(s);
      assertTrue(i >= 8, "stripe " + s + " at long " + i + ": within 64 bytes of the header");
      assertTrue(i + 8 < length, "stripe " + s + " at long " + i + " of " + length + ": no line after it");
      assertTrue(s == 0 || i - StripedRefCount.slot(s - 1) >= 8, "stripes share a line");
    }
  }

  @Test
  void leave_withoutEnter_isCaughtByTheScan() {
    StripedRefCount r = new StripedRefCount();
    r.release();
    r.close();
    assertThrows(IllegalStateException.class, r::idle);
  }

  @Test
  void readView_closedWhileHeld_keepsItsVersionUntilTheLastHolderLetsGo() {
    Version version = Version.empty();
    ReadView view = new ReadView(new MemTable(), List.of(), version);
    version.release(); // the view's reference is the only one left
    assertTrue(view.tryAcquire());
    view.close();
    assertFalse(view.tryAcquire(), "a closed view admits no new holder");
    assertTrue(version.tryAcquire(), "the holder keeps the version");
    version.release();
    view.release();
    assertFalse(version.tryAcquire(), "released once the holder let go");
  }

  @Test
  void aHolderMayLetGoOnAnotherThread() throws Exception {
    StripedRefCount r = new StripedRefCount();
    assertTrue(r.tryAcquire());
    Thread other = new Thread(r::release); // a scan closed on another thread than it opened on
    other.start();
    other.join();
    r.close();
    assertTrue(r.idle(), "the stripes' sum is zero, whatever each stripe holds");
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
      StripedRefCount r = new StripedRefCount();
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
            if (r.tryAcquire()) {
              if (ended.get()) {
                violation.set(true);
              }
              if (r.release()) {
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
