package dev.strata.bench.dbbench;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

/**
 * Counts the JVM's stop-the-world collections, their total and their longest pause, from the
 * garbage collectors' notifications. Beans that report concurrent cycles rather than pauses (G1's
 * {@code G1 Concurrent GC}, ZGC's and Shenandoah's {@code Cycles}) are left out.
 *
 * <p>Thread-safe: notifications arrive on a JMX thread.
 */
final class GcMonitor {
  private final AtomicLong count = new AtomicLong();
  private final AtomicLong totalMillis = new AtomicLong();
  private final AtomicLong maxMillis = new AtomicLong();

  /**
   * What was counted over an interval.
   *
   * @param count pauses
   * @param totalMillis their summed duration
   * @param maxMillis the longest
   *
   * <p>Immutable.
   */
  record Pauses(long count, long totalMillis, long maxMillis) {}

  /** Starts listening to every pausing collector of this JVM. */
  GcMonitor() {
    for (GarbageCollectorMXBean bean : ManagementFactory.getGarbageCollectorMXBeans()) {
      String name = bean.getName();
      if (name.contains("Concurrent") || name.contains("Cycles")) {
        continue;
      }
      if (bean instanceof NotificationEmitter emitter) {
        emitter.addNotificationListener((n, handback) -> {
          if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
            long ms = GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData())
                .getGcInfo().getDuration();
            count.incrementAndGet();
            totalMillis.addAndGet(ms);
            maxMillis.accumulateAndGet(ms, Math::max);
          }
        }, null, null);
      }
    }
  }

  /** What was counted since the last reset; then starts counting afresh. */
  Pauses takeAndReset() {
    return new Pauses(count.getAndSet(0), totalMillis.getAndSet(0), maxMillis.getAndSet(0));
  }

  /** Heap in use after a full collection now, MiB: the live data, what the heap must hold. */
  static double liveHeapMib() {
    System.gc();
    MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
    return heap.getUsed() / (1024.0 * 1024.0);
  }
}
