package dev.strata.engine.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The write controller's decisions, one signal at a time, and its counters. */
final class WriteControllerTest {
  private static final long RATE = 1 << 20; // bytes per second
  private static final long GROUP = 1024; // bytes: 1/1024 s = ~977 us at the full rate

  private final WriteController controller = controller(true, 20, 36, 1000, 4000, RATE);

  @Test
  void belowTheTriggersWritesGoAhead() {
    assertEquals(0, controller.delayNanos(19, 999, GROUP));
    assertFalse(controller.mustStop(19, 999));
  }

  @Test
  void delaysGrowGraduallyWithLevelZeroUpToTheStopTrigger() {
    long previous = 0;
    for (int tables = 20; tables < 36; tables++) {
      long delay = controller.delayNanos(tables, 0, GROUP);
      assertTrue(delay > previous, tables + " tables: " + delay + " after " + previous);
      assertFalse(controller.mustStop(tables, 0));
      previous = delay;
    }
    long atFullRate = 1_000_000_000L * GROUP / RATE;
    assertEquals(atFullRate, controller.delayNanos(20, 0, GROUP), 1000);
    assertTrue(previous < 16 * atFullRate, "never slower than a sixteenth of the rate: " + previous);
    assertTrue(controller.mustStop(36, 0));
  }

  @Test
  void delayIsProportionalToTheGroupsBytes() {
    long one = controller.delayNanos(25, 0, GROUP);
    assertEquals(2 * one, controller.delayNanos(25, 0, 2 * GROUP), 2);
  }

  @Test
  void pendingCompactionBytesSlowThenStop() {
    assertEquals(0, controller.delayNanos(0, 999, GROUP));
    long soft = controller.delayNanos(0, 1000, GROUP);
    long nearHard = controller.delayNanos(0, 3999, GROUP);
    assertTrue(soft > 0 && nearHard > soft, soft + " then " + nearHard);
    assertFalse(controller.mustStop(0, 3999));
    assertTrue(controller.mustStop(0, 4000));
  }

  @Test
  void zeroLimitsMeanNoLimit() {
    WriteController unlimited = controller(true, 20, 36, 0, 0, RATE);
    assertEquals(0, unlimited.delayNanos(0, Long.MAX_VALUE, GROUP));
    assertFalse(unlimited.mustStop(0, Long.MAX_VALUE));
  }

  @Test
  void aMemTableIsFrozenOnlyWhenLevelZeroHasRoomForItOnceFlushed() {
    assertFalse(controller.mustNotFreeze(35, 0));
    assertTrue(controller.mustNotFreeze(35, 1));
    assertTrue(controller.mustNotFreeze(36, 0));
    assertFalse(controller.mustNotFreeze(33, 2));
  }

  @Test
  void aFlushOfSeveralTablesWaitsUntilLevelZeroHasRoomForAllOfThem() {
    assertFalse(controller.mustNotInstall(35, 1));
    assertTrue(controller.mustNotInstall(34, 3));
    assertFalse(controller.mustNotInstall(33, 3));
    assertFalse(controller.mustNotInstall(0, 40), "an empty level 0 takes any flush");
    assertFalse(controller.pastStopTrigger(36));
    assertTrue(controller.pastStopTrigger(37));
  }

  @Test
  void disabledLetsEverythingThrough() {
    WriteController off = controller(false, 1, 1, 1, 1, 1);
    assertEquals(0, off.delayNanos(1000, Long.MAX_VALUE, GROUP));
    assertFalse(off.mustStop(1000, Long.MAX_VALUE));
    assertFalse(off.mustNotFreeze(1000, 2));
    assertFalse(off.mustNotInstall(1000, 2));
    assertFalse(off.pastStopTrigger(1000));
  }

  @Test
  void countsSlowdownsAndStopsApart() {
    controller.recordSlowdown(10);
    controller.recordSlowdown(5);
    controller.recordStop(100);
    assertEquals(2, controller.slowdowns());
    assertEquals(15, controller.slowdownNanos());
    assertEquals(1, controller.stops());
    assertEquals(100, controller.stopNanos());
  }

  @Test
  void rejectsTriggersOutOfOrder() {
    assertThrows(IllegalArgumentException.class, () -> controller(true, 10, 9, 0, 0, 1));
    assertThrows(IllegalArgumentException.class, () -> controller(true, 0, 9, 0, 0, 1));
    assertThrows(IllegalArgumentException.class, () -> controller(true, 1, 9, 0, 0, 0));
  }

  /** A controller of a database no bulk load is open on. */
  private static WriteController controller(
      boolean enabled, int slowdown, int stop, long soft, long hard, long rate) {
    return new WriteController(
        enabled, slowdown, stop, soft, hard, rate, new BulkLoads(1, Math.max(1, slowdown)));
  }
}
