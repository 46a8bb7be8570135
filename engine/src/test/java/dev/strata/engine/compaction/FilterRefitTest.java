package dev.strata.engine.compaction;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.engine.DbOptions;
import dev.strata.engine.FilterAllocation;
import dev.strata.engine.version.TableRef;
import dev.strata.engine.version.Version;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which table a filter refit rewrites, with what bits, and when it stops. */
final class FilterRefitTest {
  @TempDir Path dir;
  private TableEntries entries;

  private static final long BOUND = 100_000;

  @BeforeEach
  void open() {
    entries = new TableEntries(dir);
  }

  @AfterEach
  void close() {
    entries.close();
  }

  private static DbOptions options(boolean refit, int ribbonFromLevel) {
    return DbOptions.builder()
        .filterAllocation(FilterAllocation.BY_LEVEL)
        .ribbonFromLevel(ribbonFromLevel)
        .filterMemoryBytes(BOUND)
        .refitFiltersAtRest(refit)
        .build();
  }

  /**
   * Level 1: rows "a"-"m" (4,000 entries, 400 KB) and "n"-"z" (6,000, 600 KB); level 2: "a"-"z"
   * (100,000, 10 MB); every filter at {@code bitsPerKey} (a third of the bound at 2).
   */
  private Version tree(double bitsPerKey) throws IOException {
    List<List<TableRef>> levels = TableEntries.emptyLevels();
    levels.get(1).add(entries.table(1, "a", "m", 400_000, 4_000, bytes(4_000, bitsPerKey)));
    levels.get(1).add(entries.table(1, "n", "z", 600_000, 6_000, bytes(6_000, bitsPerKey)));
    levels.get(2).add(entries.table(2, "a", "z", 10_000_000, 100_000, bytes(100_000, bitsPerKey)));
    return Version.of(levels);
  }

  private static long bytes(long keys, double bitsPerKey) {
    return (long) Math.ceil(keys * bitsPerKey / 8);
  }

  @Test
  void aRefit_rewritesOneTableIntoItsOwnLevel_neverAsAMove_andLeavesTheShape() throws IOException {
    Version v = tree(2);
    Compaction c = Compaction.refit(v.level(1).get(0));
    assertTrue(c.isRefit());
    assertFalse(c.isTrivialMove(), "a refit rewrites its table");
    assertEquals(1, c.outputLevel());
    assertEquals(List.of(), c.outputLevelInputs());
    assertFalse(new Compaction(1, 2, v.level(1).subList(0, 1), List.of()).isRefit());
    TreeShape after = TreeShape.afterCompaction(v, c);
    assertArrayEquals(TreeShape.of(v).runs(), after.runs(), "its entries stay in their level");
    assertArrayEquals(TreeShape.of(v).reach(), after.reach(), 1e-12);
  }

  /** The picker's bits are what the compaction's layout then gives, with and without Ribbon. */
  @Test
  void refitBitsPerKey_areTheLayoutTheRefitIsWrittenWith() throws IOException {
    for (int ribbon : new int[] {2, Integer.MAX_VALUE}) {
      for (double bits : new double[] {2, 6}) { // room left, and the bound nearly spent
        Version v = tree(bits);
        ToDoubleFunction<TableRef> refitBits =
            new FilterChoice(options(true, ribbon), () -> TreeShape.of(v)).refitBitsPerKey(v);
        for (int level = 1; level <= 2; level++) {
          for (TableRef t : v.level(level)) {
            double layout = new FilterChoice(options(true, ribbon), () -> TreeShape.of(v))
                .forCompaction(Compaction.refit(t), v).bitsPerKey();
            assertEquals(layout, refitBits.applyAsDouble(t), 1e-9,
                "Ribbon from " + ribbon + ", " + bits + " bits, " + t.metadata());
          }
        }
      }
    }
  }

  /**
   * A refit plans for the tree as it is, a compaction for the tree grown by what lies above its
   * deepest level: the deepest level's refit gets more.
   */
  @Test
  void aRefitPlansForTheTreeAsItIs() throws IOException {
    Version v = tree(2);
    FilterChoice choice = new FilterChoice(options(true, Integer.MAX_VALUE), () -> TreeShape.of(v));
    double refit = choice.refitBitsPerKey(v).applyAsDouble(v.level(2).get(0));
    double compaction = new FilterChoice(options(true, Integer.MAX_VALUE), () -> TreeShape.of(v))
        .forCompaction(new Compaction(1, 2, v.level(1), v.level(2)), v).bitsPerKey();
    assertTrue(refit > compaction, refit + " vs " + compaction);
  }

  @Test
  void take_picksTheMostFalsePositivesSavedPerByte_smallUpperTablesFirst() throws IOException {
    Version v = tree(2);
    DbOptions options = options(true, Integer.MAX_VALUE);
    FilterRefit refit = new FilterRefit(options, new FilterChoice(options, () -> TreeShape.of(v)));
    assertFalse(refit.due(), "armed by an install only");
    refit.treeChanged();
    assertTrue(refit.due());
    Compaction c = refit.take(v, false);
    assertNotNull(c);
    assertTrue(c.isRefit());
    // Both level-1 tables span as much of the rows; the smaller costs less to rewrite.
    assertSame(v.level(1).get(0), c.inputs().get(0));
    assertTrue(refit.due(), "more may follow once it installs");
    refit.ran(c);
    assertEquals(1, refit.refits());
    assertEquals(400_000, refit.bytesRewritten());
  }

  @Test
  void take_yieldsToAPendingFlush_andIsDisarmedUntilTheNextInstall() throws IOException {
    Version v = tree(2);
    DbOptions options = options(true, Integer.MAX_VALUE);
    FilterRefit refit = new FilterRefit(options, new FilterChoice(options, () -> TreeShape.of(v)));
    refit.treeChanged();
    assertNull(refit.take(v, true));
    assertFalse(refit.due());
    refit.treeChanged();
    assertNotNull(refit.take(v, false));
  }

  @Test
  void off_orWithoutABound_nothingIsEverDue() throws IOException {
    Version v = tree(2);
    for (DbOptions options : new DbOptions[] {options(false, Integer.MAX_VALUE),
        options(true, Integer.MAX_VALUE).toBuilder().filterMemoryBytes(0).build(),
        options(true, Integer.MAX_VALUE).toBuilder().autoCompaction(false).build()}) {
      FilterRefit refit = new FilterRefit(options, new FilterChoice(options, () -> TreeShape.of(v)));
      refit.treeChanged();
      assertFalse(refit.due());
      assertNull(refit.take(v, false));
    }
  }

  /** Tables that hold the bits their refit would give: nothing is worth it, and it disarms. */
  @Test
  void take_stopsOnceNoTablesRateWouldFallByATenth() throws IOException {
    Version low = tree(2);
    DbOptions options = options(true, Integer.MAX_VALUE);
    ToDoubleFunction<TableRef> planned =
        new FilterChoice(options, () -> TreeShape.of(low)).refitBitsPerKey(low);
    List<List<TableRef>> levels = TableEntries.emptyLevels();
    for (int level = 1; level <= 2; level++) {
      for (TableRef t : low.level(level)) {
        double bits = planned.applyAsDouble(t);
        String from = level == 2 || levels.get(1).isEmpty() ? "a" : "n";
        String to = level == 1 && levels.get(1).isEmpty() ? "m" : "z";
        levels.get(level).add(entries.table(level, from, to, t.metadata().fileSize(),
            t.metadata().entryCount(), bytes(t.metadata().entryCount(), bits)));
      }
    }
    Version refit = Version.of(levels);
    FilterRefit refits =
        new FilterRefit(options, new FilterChoice(options, () -> TreeShape.of(refit)));
    refits.treeChanged();
    assertNull(refits.take(refit, false));
    assertFalse(refits.due(), "quiet once converged");
  }

  /**
   * Level-0 tables at the one-bit floor, met by every absent Get, cost more than a tenth of the
   * tree's false positives: level 0 is compacted into level 1, not refit; a well-filtered level 0
   * is left to the flushes.
   */
  @Test
  void take_compactsACostlyLevelZeroIntoLevelOne() throws IOException {
    DbOptions options = options(true, Integer.MAX_VALUE);
    for (double level0Bits : new double[] {1, 20}) {
      List<List<TableRef>> levels = TableEntries.emptyLevels();
      levels.get(0).add(entries.table(0, "a", "z", 30_000, 1_000, bytes(1_000, level0Bits)));
      levels.get(1).add(entries.table(1, "a", "z", 1_000_000, 10_000, bytes(10_000, 12)));
      levels.get(2).add(entries.table(2, "a", "z", 10_000_000, 100_000, bytes(100_000, 5)));
      Version v = Version.of(levels);
      FilterRefit refit =
          new FilterRefit(options, new FilterChoice(options, () -> TreeShape.of(v)));
      refit.treeChanged();
      Compaction c = refit.take(v, false);
      if (level0Bits == 1) {
        assertNotNull(c);
        assertEquals(0, c.level());
        assertEquals(1, c.outputLevel());
        assertEquals(2, c.allInputs().size(), "level 0 and the level-1 table it overlaps");
      } else {
        assertTrue(c == null || c.isRefit(), "a level 0 of 20 bits stays: " + c);
      }
    }
  }
}
