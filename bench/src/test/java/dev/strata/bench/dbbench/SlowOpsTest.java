package dev.strata.bench.dbbench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SlowOpsTest {
  @Test
  void sumsTheLatenciesOfTheOperationsOverTenMillisecondsOnly() {
    SlowOps s = new SlowOps();
    s.record(SlowOps.SLOW_NANOS); // not over
    s.record(9_000_000L);
    s.record(12_000_000L);
    s.record(SlowOps.SLOW_NANOS + 1);
    s.record(150_000_000L);
    s.record(SlowOps.VERY_SLOW_NANOS); // over 10 ms, not over 100 ms
    s.record(SlowOps.BOUND_NANOS); // over 10 ms, not over 50 ms
    assertEquals(5, s.slow());
    assertEquals(2, s.overBound());
    assertEquals(1, s.verySlow());
    assertEquals(12_000_000L + SlowOps.SLOW_NANOS + 1 + 150_000_000L + SlowOps.VERY_SLOW_NANOS
        + SlowOps.BOUND_NANOS, s.slowNanos());
  }

  @Test
  void mergingPerThreadTalliesEqualsOneTallyOfEveryOperation() {
    long seed = new SplittableRandom().nextLong();
    SplittableRandom random = new SplittableRandom(seed);
    SlowOps all = new SlowOps();
    SlowOps merged = new SlowOps();
    for (int thread = 0; thread < 4; thread++) {
      SlowOps one = new SlowOps();
      for (int i = 0; i < 1000; i++) {
        long nanos = random.nextLong(200_000_000L);
        one.record(nanos);
        all.record(nanos);
      }
      merged.add(one);
    }
    String where = "seed " + seed;
    assertEquals(all.slow(), merged.slow(), where);
    assertEquals(all.overBound(), merged.overBound(), where);
    assertEquals(all.verySlow(), merged.verySlow(), where);
    assertEquals(all.slowNanos(), merged.slowNanos(), where);
  }
}
