package dev.strata.sstable.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/** The leak check sees open files and live Strata threads, and really runs after every test. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
final class LeakCheckExtensionTest {
  private static long checksBefore = -1;

  @TempDir Path dir;

  @Test
  @Order(1)
  void afterEach_isRegistered_recordChecksSoFar() {
    checksBefore = LeakCheckExtension.checksRun();
  }

  @Test
  @Order(2)
  void afterEach_isRegistered_ranAfterThePreviousTest() {
    assertTrue(checksBefore >= 0, "the first test of this class did not run first");
    assertTrue(
        LeakCheckExtension.checksRun() > checksBefore,
        "LeakCheckExtension did not run after a test: is extension autodetection on?");
  }

  @Test
  void openTestFiles_openChannel_isListedUntilClosed() throws Exception {
    Path file = Files.writeString(dir.resolve("000001.sst"), "x");
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      List<Path> open = OpenHandleTracker.openTestFiles();
      assertEquals(1, open.stream().filter(p -> p.endsWith(file.getFileName())).count(), "" + open);
      AssertionError e = assertThrows(AssertionError.class, LeakCheckExtensionTest::check);
      assertTrue(e.getMessage().contains("000001.sst"), e.getMessage());
    }
    assertEquals(List.of(), OpenHandleTracker.openTestFiles());
  }

  @Test
  void afterEach_liveStrataThread_fails() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    Thread t = new Thread(() -> awaitQuietly(release), LeakCheckExtension.THREAD_PREFIX + "test");
    t.start();
    try {
      AssertionError e = assertThrows(AssertionError.class, LeakCheckExtensionTest::check);
      assertTrue(e.getMessage().contains("strata-test"), e.getMessage());
    } finally {
      release.countDown();
      t.join();
    }
    check(); // nothing left: passes
  }

  private static void check() throws InterruptedException {
    new LeakCheckExtension(10).afterEach(null);
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
