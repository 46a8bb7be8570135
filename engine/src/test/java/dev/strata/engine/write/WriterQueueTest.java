package dev.strata.engine.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.engine.write.WriterQueue.Writer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The writer queue's grouping and hand-over, driven by real threads: the test thread holds the head
 * while others queue behind it, then looks at the group it would write.
 */
final class WriterQueueTest {
  private static final long BUDGET = 1000;

  private final ReentrantLock mutex = new ReentrantLock();
  private final AtomicInteger drained = new AtomicInteger();
  private final WriterQueue queue = new WriterQueue(mutex, BUDGET, drained::incrementAndGet);
  private final ExecutorService threads = Executors.newCachedThreadPool();

  @AfterEach
  void stopThreads() throws InterruptedException {
    threads.shutdownNow();
    assertTrue(threads.awaitTermination(10, TimeUnit.SECONDS));
  }

  /** A batch of one put whose cost against the budget is {@code bytes}. */
  private static List<Mutation> batch(int bytes) {
    return List.of(Mutation.put(new byte[] {1}, new byte[0], new byte[bytes - 17]));
  }

  /** The head, taken by the test thread; the mutex stays held by nobody on return. */
  private Writer takeHead(List<Mutation> mutations) throws IOException {
    mutex.lock();
    try {
      Writer head = queue.enqueue(mutations);
      assertNotNull(head, "an empty queue makes the first writer the head");
      return head;
    } finally {
      mutex.unlock();
    }
  }

  /** Queues a write on another thread; it returns the writer when that thread becomes the head. */
  private Future<Writer> queueBehind(List<Mutation> mutations, int expectedSize) throws Exception {
    Future<Writer> f =
        threads.submit(
            () -> {
              mutex.lock();
              try {
                return queue.enqueue(mutations);
              } finally {
                mutex.unlock();
              }
            });
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (sizeNow() < expectedSize) {
      assertTrue(System.nanoTime() < deadline, "the writer never queued");
      Thread.sleep(1);
    }
    return f;
  }

  private int sizeNow() {
    mutex.lock();
    try {
      return queue.size();
    } finally {
      mutex.unlock();
    }
  }

  private List<Writer> groupOf(Writer head) {
    mutex.lock();
    try {
      return queue.group(head);
    } finally {
      mutex.unlock();
    }
  }

  private void finish(List<Writer> group, Throwable failure) {
    mutex.lock();
    try {
      queue.finish(group, failure);
    } finally {
      mutex.unlock();
    }
  }

  @Test
  void group_takesQueuedBatchesUpToTheFirstBarrier_andTheBarrierLeadsAlone() throws Exception {
    Writer a = takeHead(batch(100));
    Future<Writer> b = queueBehind(batch(100), 2);
    Future<Writer> barrier = queueBehind(null, 3);
    Future<Writer> d = queueBehind(batch(100), 4);

    List<Writer> first = groupOf(a);
    assertEquals(2, first.size());
    assertSame(a, first.get(0));
    finish(first, null);
    assertNull(b.get(10, TimeUnit.SECONDS), "b was written by a's group");

    Writer barrierHead = barrier.get(10, TimeUnit.SECONDS);
    assertNotNull(barrierHead, "the barrier leads its own group");
    assertTrue(barrierHead.isBarrier());
    assertEquals(List.of(barrierHead), groupOf(barrierHead));
    finish(List.of(barrierHead), null);

    Writer dHead = d.get(10, TimeUnit.SECONDS);
    assertNotNull(dHead, "the batch after the barrier is not grouped across it");
    finish(groupOf(dHead), null);
    assertEquals(0, sizeNow());
    assertEquals(1, drained.get(), "drained once, when the last writer left");
  }

  @Test
  void group_stopsAtTheByteBudget_butAlwaysHoldsTheHead() throws Exception {
    Writer a = takeHead(batch((int) BUDGET * 2));
    Future<Writer> b = queueBehind(batch(20), 2);
    List<Writer> group = groupOf(a);
    assertEquals(List.of(a), group, "a head over budget still goes, alone");
    finish(group, null);
    Writer bHead = b.get(10, TimeUnit.SECONDS);
    assertNotNull(bHead);
    Future<Writer> c = queueBehind(batch((int) BUDGET - 30), 2);
    Future<Writer> d = queueBehind(batch(30), 3);
    List<Writer> second = groupOf(bHead);
    assertEquals(2, second.size(), "b (20) + c (970) fit the budget; d (30) would not");
    finish(second, null);
    assertNull(c.get(10, TimeUnit.SECONDS));
    finish(groupOf(d.get(10, TimeUnit.SECONDS)), null);
  }

  @Test
  void finish_failure_reachesEveryMemberAsIOException() throws Exception {
    Writer a = takeHead(batch(100));
    List<Future<Writer>> behind = new ArrayList<>();
    behind.add(queueBehind(batch(100), 2));
    behind.add(queueBehind(batch(100), 3));
    List<Writer> group = groupOf(a);
    assertEquals(3, group.size());
    IllegalStateException cause = new IllegalStateException("disk on fire");
    finish(group, cause);
    for (Future<Writer> f : behind) {
      Throwable t = assertThrowsCause(f);
      assertTrue(t instanceof IOException, t.toString());
      assertSame(cause, t.getCause());
    }
    assertEquals(0, sizeNow());
  }

  private static Throwable assertThrowsCause(Future<Writer> f) throws Exception {
    try {
      f.get(10, TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      return e.getCause();
    }
    throw new AssertionError("the member did not see the group's failure");
  }
}
