package dev.strata.engine;

import dev.strata.sstable.block.Lz4Decompressor;
import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Loads, once per JVM and on a daemon thread, when an open asks for it ({@code
 * DbOptions.warmUpOnOpen}), the two things a JVM loads only once and slowly that the first reads
 * and the open's bean registration use: LZ4's native decompressor (without it the first data
 * blocks decode with the plain-Java decoder, see {@code Lz4Decompressor}) and the platform MBean
 * server (the open registers its {@code DbMXBean} there, on a thread of its own). Started as the
 * open begins, they overlap its manifest, log and table reads; whoever needs one before it is
 * ready waits for it (class initialisation, and {@code getPlatformMBeanServer}, are synchronised).
 *
 * <p>A failure here is ignored: the open or read that needs the same thing does it again and
 * reports it.
 *
 * <p>Thread-safe (static methods only).
 */
final class OpenPreload {
  private static final AtomicBoolean STARTED = new AtomicBoolean();

  private OpenPreload() {}

  /** Starts the loading unless an earlier open in this JVM has. */
  static void start() {
    if (STARTED.get() || !STARTED.compareAndSet(false, true)) {
      return;
    }
    Thread t = new Thread(OpenPreload::run, "strata-open-preload");
    t.setDaemon(true);
    t.start();
  }

  private static void run() {
    try {
      Lz4Decompressor.load();
    } catch (RuntimeException | LinkageError e) {
      // the first compressed block read loads it again and reports the failure
    }
    try {
      ManagementFactory.getPlatformMBeanServer();
    } catch (RuntimeException | LinkageError e) {
      // MBeans.register asks again and reports the failure
    }
  }
}
