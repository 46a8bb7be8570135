package dev.strata.engine.compaction;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.engine.manifest.FileMetadata;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.ValueKind;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Where compaction outputs are cut: the target size, and the boundaries of the level below. */
class OutputCutsTest {
  private static final long TARGET = 1000;

  @Test
  void withoutGrandparentsAnOutputIsCutAtTheTargetOnly() {
    OutputCuts cuts = OutputCuts.atSize(TARGET);
    assertFalse(cuts.cutBefore(row("a"), 0, false));
    assertFalse(cuts.cutBefore(row("b"), 999, true));
    assertTrue(cuts.cutBefore(row("c"), 1000, true));
  }

  @Test
  void anOutputPastHalfTheTargetIsCutWhereAGrandparentBegins() {
    OutputCuts cuts = OutputCuts.atBoundaries(TARGET, List.of(table("m", "p", 100)));
    assertFalse(cuts.cutBefore(row("a"), 0, false));
    assertFalse(cuts.cutBefore(row("b"), 600, true)); // no boundary between a and b
    assertTrue(cuts.cutBefore(row("n"), 600, true)); // enters [m, p] at 60 % of the target
  }

  @Test
  void anOutputBelowHalfTheTargetIsNotCutAtABoundary() {
    OutputCuts cuts = OutputCuts.atBoundaries(TARGET, List.of(table("m", "p", 100)));
    cuts.cutBefore(row("a"), 0, false);
    assertFalse(cuts.cutBefore(row("n"), 400, true));
  }

  @Test
  void eachBoundaryCrossedRaisesTheSizeAtWhichTheOutputIsCut() {
    OutputCuts cuts =
        OutputCuts.atBoundaries(
            TARGET, List.of(table("b", "b", 10), table("d", "d", 10), table("f", "f", 10)));
    cuts.cutBefore(row("a"), 0, false);
    // the n-th boundary crossed (counting itself) cuts at 50 + 5n %
    assertFalse(cuts.cutBefore(row("b"), 100, true)); // 55 %
    assertFalse(cuts.cutBefore(row("c"), 100, true)); // 60 %
    assertFalse(cuts.cutBefore(row("d"), 640, true)); // 65 %: not yet
    assertFalse(cuts.cutBefore(row("e"), 690, true)); // 70 %: not yet
    assertTrue(cuts.cutBefore(row("f"), 750, true)); // 75 %: cut
    cuts.cut();
    assertFalse(cuts.cutBefore(row("g"), 540, true)); // counting again from the cut: 55 %
  }

  @Test
  void anOutputMayGrowToTwiceTheTargetWaitingForABoundary() {
    OutputCuts cuts = OutputCuts.atBoundaries(TARGET, List.of(table("a", "z", 100)));
    cuts.cutBefore(row("b"), 0, false);
    assertFalse(cuts.cutBefore(row("c"), 1500, true));
    assertTrue(cuts.cutBefore(row("d"), 2000, true));
  }

  @Test
  void aRowSkippingAWholeLargeGrandparentCutsASmallOutput() {
    OutputCuts cuts =
        OutputCuts.atBoundaries(TARGET, List.of(table("b", "c", 10), table("e", "f", 500)));
    cuts.cutBefore(row("a"), 0, false);
    // from before [b, c] to after [e, f]: both tables skipped, and [e, f] holds half a target
    assertTrue(cuts.cutBefore(row("g"), 200, true));
  }

  @Test
  void anOutputIsCutBeforeItWouldOverlapMoreThanTheLargestCompactionBelow() {
    OutputCuts cuts =
        OutputCuts.atBoundaries(
            TARGET, List.of(table("b", "b", 20_000), table("d", "d", 6_000)));
    cuts.cutBefore(row("a"), 0, false);
    assertFalse(cuts.cutBefore(row("b"), 100, true)); // 20,100 bytes: within 25 x the target
    assertTrue(cuts.cutBefore(row("d"), 100, true)); // 26,100: past it
    cuts.cut();
    assertFalse(cuts.cutBefore(row("e"), 100, true)); // the new output overlaps [d] only
  }

  private static byte[] row(String r) {
    return r.getBytes(StandardCharsets.UTF_8);
  }

  private static FileMetadata table(String from, String to, long bytes) {
    return new FileMetadata(1, 2, bytes, 1, 1, 1, key(from), key(to), 0);
  }

  private static InternalKey key(String row) {
    return new InternalKey(row(row), new byte[0], 1, ValueKind.PUT);
  }
}
