package dev.strata.engine.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

final class BulkLoadsTest {
  /** Compaction at 4 tables, writes slowed from 20: the defaults. */
  private final BulkLoads loads = new BulkLoads(4, 20);

  @Test
  void begin_raisesTheTriggerAndTheStallsByTheSameTables() {
    assertFalse(loads.active());
    assertEquals(4, loads.level0CompactionTrigger());
    loads.begin(64);
    assertTrue(loads.active());
    assertEquals(64, loads.level0CompactionTrigger());
    assertEquals(60, loads.stallRaise());
    assertEquals(60, loads.stallRaise(70)); // a load's own tables never drop its raise
    assertEquals(60, loads.stallRaise(0));
  }

  @Test
  void end_restoresTheTrigger_butKeepsTheRaiseUntilLevelZeroDrains() {
    loads.begin(64);
    loads.end(64);
    assertFalse(loads.active());
    assertEquals(4, loads.level0CompactionTrigger());
    assertEquals(60, loads.stallRaise(50)); // what the load left: writes go on
    assertEquals(60, loads.stallRaise(20));
    assertEquals(0, loads.stallRaise(19)); // compaction took it in
    assertEquals(0, loads.stallRaise(50));
  }

  @Test
  void overlappingLoads_theLargestApplies_andEndingItFallsBackToTheOthers() {
    loads.begin(10);
    loads.begin(30);
    loads.begin(10);
    assertEquals(30, loads.level0CompactionTrigger());
    loads.end(30);
    assertEquals(10, loads.level0CompactionTrigger());
    assertEquals(26, loads.stallRaise(40));
    assertEquals(6, loads.stallRaise(25)); // below 20 + 6: down to what the open loads need
    loads.end(10);
    assertEquals(10, loads.level0CompactionTrigger());
    loads.end(10);
    assertEquals(4, loads.level0CompactionTrigger());
  }

  @Test
  void aLoadBelowTheConfiguredTrigger_changesNothing() {
    loads.begin(2);
    assertEquals(4, loads.level0CompactionTrigger());
    assertEquals(0, loads.stallRaise(30));
    loads.end(2);
  }

  @Test
  void misuse_isRejected() {
    assertThrows(IllegalArgumentException.class, () -> loads.begin(0));
    assertThrows(IllegalStateException.class, () -> loads.end(8));
    assertThrows(IllegalArgumentException.class, () -> new BulkLoads(0, 4));
    assertThrows(IllegalArgumentException.class, () -> new BulkLoads(8, 4));
  }

  @Test
  void writeController_movesItsTriggersWithTheLoads() {
    WriteController c = new WriteController(true, 20, 36, 0, 0, 1 << 20, loads);
    assertTrue(c.mustStop(36, 0));
    loads.begin(64);
    assertFalse(c.mustStop(36, 0));
    assertEquals(0, c.delayNanos(79, 0, 1000));
    assertTrue(c.delayNanos(80, 0, 1000) > 0);
    assertTrue(c.mustStop(96, 0));
    assertFalse(c.mustNotFreeze(94, 1));
    assertTrue(c.mustNotFreeze(95, 1));
    loads.end(64);
    assertFalse(c.mustStop(60, 0)); // the tables the load left stop nothing
    assertEquals(0, c.delayNanos(19, 0, 1000)); // drained: the configured triggers again
    assertTrue(c.mustStop(36, 0));
  }
}
