package dev.strata.engine.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.management.UnixOperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The free descriptors as /proc says them agree with the JDK's bean; the limits line parses. */
final class FileDescriptorsTest {
  @Test
  void free_agreesWithTheOperatingSystemBean() {
    if (!(ManagementFactory.getOperatingSystemMXBean() instanceof UnixOperatingSystemMXBean unix)) {
      return; // no bean to compare with on this platform
    }
    long free = FileDescriptors.free();
    long beanFree = unix.getMaxFileDescriptorCount() - unix.getOpenFileDescriptorCount();
    assertTrue(Math.abs(free - beanFree) <= 8, "free " + free + ", the bean's " + beanFree);
  }

  @Test
  void softLimit_readsTheMaxOpenFilesLine() {
    List<String> limits = List.of(
        "Limit                     Soft Limit           Hard Limit           Units     ",
        "Max processes             unlimited            unlimited            processes ",
        "Max open files            1048576              1048576              files     ",
        "Max locked memory         8388608              8388608              bytes     ");
    assertEquals(1048576, FileDescriptors.softLimit(limits));
    assertEquals(-1, FileDescriptors.softLimit(List.of(
        "Max open files            unlimited            unlimited            files     ")));
    assertEquals(-1, FileDescriptors.softLimit(List.of("Max processes  10  10  processes")));
  }
}
