package dev.strata.bench.dbbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ProcCpuTest {
  @Test
  void othersShare_isTheMachinesBusyTimeLessThisProcesssOverAllTime() {
    ProcCpu before = new ProcCpu(1_000, 500, 100);
    ProcCpu after = new ProcCpu(2_000, 1_300, 400);
    assertEquals(50.0, ProcCpu.othersPercent(before, after), 1e-9);
    // Ticks are sampled at different moments: this process may seem busier than the machine.
    assertEquals(0.0, ProcCpu.othersPercent(before, new ProcCpu(2_000, 600, 400)), 1e-9);
    assertNull(ProcCpu.othersPercent(null, after));
    assertNull(ProcCpu.othersPercent(before, before));
  }

  @Test
  void now_readsThisMachine_whereProcExists() {
    ProcCpu a = ProcCpu.now();
    if (a == null) {
      return; // not Linux: the column stays empty
    }
    ProcCpu b = ProcCpu.now();
    assertTrue(b.machineTotal() >= a.machineTotal() && b.self() >= a.self(), a + " then " + b);
    assertTrue(a.machineBusy() <= a.machineTotal() && a.self() >= 0, a.toString());
    Double others = ProcCpu.othersPercent(a, b);
    assertTrue(others == null || (others >= 0 && others <= 100), "others " + others);
  }
}
