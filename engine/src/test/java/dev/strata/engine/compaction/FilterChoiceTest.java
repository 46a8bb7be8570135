package dev.strata.engine.compaction;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.engine.DbOptions;
import dev.strata.engine.FilterAllocation;
import dev.strata.engine.version.TableRef;
import dev.strata.engine.version.Version;
import dev.strata.sstable.TableOptions;
import dev.strata.sstable.filter.FilterKind;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The tree shapes the filter budget plans on, and the layouts it gives flushes and compactions. */
final class FilterChoiceTest {
  @TempDir Path dir;
  private TableEntries entries;

  @BeforeEach
  void open() {
    entries = new TableEntries(dir);
  }

  @AfterEach
  void close() {
    entries.close();
  }

  /** Two level-0 tables (2,000 entries, then 1,000), level 1 of 10,000, level 2 of 100,000. */
  private Version tree() throws IOException {
    List<List<TableRef>> levels = TableEntries.emptyLevels();
    levels.get(0).add(0, entries.table(0, "a", "z", 1, 1_000)); // newest first
    levels.get(0).add(0, entries.table(0, "a", "z", 1, 2_000));
    levels.get(1).add(entries.table(1, "a", "m", 1, 4_000));
    levels.get(1).add(entries.table(1, "n", "z", 1, 6_000));
    levels.get(2).add(entries.table(2, "a", "z", 1, 100_000));
    return Version.of(levels);
  }

  @Test
  void shapes_levelZeroTablesAreRunsOfTheirOwn_deeperLevelsOneEach() throws IOException {
    Version v = tree();
    TreeShape s = TreeShape.of(v);
    assertArrayEquals(new long[] {2_000, 1_000}, s.level0Tables());
    assertArrayEquals(new long[] {2_000, 1_000, 10_000, 100_000, 0, 0, 0, 0}, s.runs());
    assertEquals(3, s.runOfLevel(2));
    TreeShape flushed = s.withLevel0Table(500);
    assertEquals(3, flushed.level0Count());
    assertEquals(500, flushed.runs()[2]);
    // Level 0 into level 1: level 1 receives the level-0 entries, level 0 is counted as it was
    // (flushes refill it), the output level's own inputs once.
    Compaction c = new Compaction(0, 1, v.level(0), v.level(1));
    TreeShape after = TreeShape.afterCompaction(v, c);
    assertArrayEquals(new long[] {2_000, 1_000, 13_000, 100_000, 0, 0, 0, 0}, after.runs());
  }

  /**
   * A run's reach is the share of the tree's row range ("a" to "z") its tables span: level 1's two
   * tables leave the gap between "m" and "n" (1/25 of it); runs planned without tables reach
   * every row, and a compaction's output level reaches the span of its inputs.
   */
  @Test
  void shapes_reachIsTheShareOfTheRowRangeARunSpans() throws IOException {
    Version v = tree();
    TreeShape s = TreeShape.of(v);
    assertArrayEquals(new double[] {1, 1, 24 / 25.0, 1, 0, 0, 0, 0}, s.reach(), 1e-9);
    assertEquals(1, s.withLevel0Table(500).reach()[2], 1e-9);
    assertArrayEquals(new double[] {1, 1, 1, 1, 24 / 25.0, 1, 0, 0, 0, 0},
        s.grownToItsDeepestLevel(113_000, 4, 700).reach(), 1e-9);
    TreeShape intoLevel1 = TreeShape.afterCompaction(v, new Compaction(0, 1, v.level(0), v.level(1)));
    assertEquals(1, intoLevel1.reach()[intoLevel1.runOfLevel(1)], 1e-9);
    List<List<TableRef>> narrow = TableEntries.emptyLevels();
    narrow.get(1).add(entries.table(1, "a", "b", 1, 1_000));
    narrow.get(2).add(entries.table(2, "a", "z", 1, 100_000));
    Version w = Version.of(narrow);
    TreeShape n = TreeShape.of(w);
    assertEquals(1 / 25.0, n.reach()[n.runOfLevel(1)], 1e-9);
    // Under BY_LEVEL a run met 1/25 of the time gets fewer bits than the same run met always.
    DbOptions byLevel = DbOptions.builder().filterAllocation(FilterAllocation.BY_LEVEL).build();
    Version wide = Version.of(levels(entries.table(1, "a", "z", 1, 1_000),
        entries.table(2, "a", "z", 1, 100_000)));
    double deepWithNarrowAbove = new FilterChoice(byLevel, () -> n)
        .forCompaction(new Compaction(1, 2, w.level(1), w.level(2)), w).bitsPerKey();
    double deepWithWideAbove = new FilterChoice(byLevel, () -> TreeShape.of(wide))
        .forCompaction(new Compaction(1, 2, wide.level(1), wide.level(2)), wide).bitsPerKey();
    assertTrue(deepWithNarrowAbove > deepWithWideAbove,
        "the deepest level gets what a seldom-met level 1 gives up: " + deepWithNarrowAbove
            + " vs " + deepWithWideAbove);
  }

  private static List<List<TableRef>> levels(TableRef level1, TableRef level2) {
    List<List<TableRef>> levels = TableEntries.emptyLevels();
    levels.get(1).add(level1);
    levels.get(2).add(level2);
    return levels;
  }

  @Test
  void byLevel_aFlushGetsMoreBitsThanTheBudget_theLastLevelFewer_RibbonFromItsLevel() throws IOException {
    Version v = tree();
    DbOptions options = DbOptions.builder()
        .filterAllocation(FilterAllocation.BY_LEVEL).ribbonFromLevel(2).build();
    FilterChoice choice = new FilterChoice(options, () -> TreeShape.of(v));
    TableOptions flush = choice.forFlush(1_000);
    assertTrue(flush.bitsPerKey() > 10, "a small level-0 run: " + flush.bitsPerKey());
    assertEquals(FilterKind.BLOOM, flush.filterKind());
    TableOptions last = choice.forCompaction(new Compaction(1, 2, v.level(1), v.level(2)), v);
    assertTrue(last.bitsPerKey() < 10, "the last level: " + last.bitsPerKey());
    assertEquals(FilterKind.RIBBON, last.filterKind());
    TableOptions uniform = new FilterChoice(DbOptions.defaults(), () -> TreeShape.of(v)).forFlush(1_000);
    assertEquals(10, uniform.bitsPerKey());
    assertEquals(FilterKind.BLOOM, uniform.filterKind());
  }

  @Test
  void filterMemoryBytes_lowersTheAverageToWhatTheMemoryAffords_andByLevelStillSplitsIt()
      throws IOException {
    Version v = tree(); // 113,000 entries; a flush of 1,000 makes 114,000
    // Planned for the tree grown to its deepest level: level 2 as large as the whole tree, level 0
    // at its compaction trigger (4) with tables of the flush's size, level 1 as it is:
    // 2,000 + 1,000 + 1,000 + 1,000 + 10,000 + 114,000 entries.
    // A chunk's overhead is not bits: the bound holds them besides.
    int chunk = DbOptions.defaults().filters().bloomChunkBytes();
    long fiveBitsEach = (long) Math.ceil(129_000 * 5 / 8.0
        * (chunk + FilterChoice.CHUNK_OVERHEAD_BYTES) / chunk);
    DbOptions uniform = DbOptions.builder().filterMemoryBytes(fiveBitsEach).build();
    TableOptions flush = new FilterChoice(uniform, () -> TreeShape.of(v)).forFlush(1_000);
    assertEquals(5.0, flush.bitsPerKey(), 1e-4);
    TableOptions ample = new FilterChoice(uniform.toBuilder().filterMemoryBytes(1L << 30).build(),
        () -> TreeShape.of(v)).forFlush(1_000);
    assertEquals(10.0, ample.bitsPerKey(), 1e-9);
    DbOptions byLevel = uniform.toBuilder().filterAllocation(FilterAllocation.BY_LEVEL).build();
    FilterChoice choice = new FilterChoice(byLevel, () -> TreeShape.of(v));
    assertTrue(choice.forFlush(1_000).bitsPerKey() > 5, "a small level-0 run gets more");
    double last = choice.forCompaction(new Compaction(1, 2, v.level(1), v.level(2)), v).bitsPerKey();
    double lastUnbounded = new FilterChoice(byLevel.toBuilder().filterMemoryBytes(0).build(),
        () -> TreeShape.of(v)).forCompaction(new Compaction(1, 2, v.level(1), v.level(2)), v)
        .bitsPerKey();
    assertTrue(last < 5 && last < lastUnbounded, last + " vs " + lastUnbounded);
  }

  @Test
  void grownToItsDeepestLevel_plansTheDeepestLevelAsTheWholeTree_andTheBoundCapsWhatIsLeft()
      throws IOException {
    Version v = tree();
    TreeShape grown = TreeShape.of(v).grownToItsDeepestLevel(113_000, 4, 700);
    assertArrayEquals(new long[] {2_000, 1_000, 700, 700, 10_000, 113_000, 0, 0, 0, 0},
        grown.runs());
    assertArrayEquals(new long[] {500, 0, 0, 0, 0, 0, 0, 0},
        new TreeShape(new long[] {500}, new long[8], 0).grownToItsDeepestLevel(500, 1, 500).runs(),
        "level 0 alone is planned as it is");
    // Tables that have spent all but 100 bytes of the bound: a flush of 1,000 entries gets 0.8
    // bits per key's worth, so the floor of one bit.
    TreeShape spent = new TreeShape(new long[] {1_000}, new long[] {0, 0, 100_000, 0, 0, 0, 0, 0},
        1_000_000 - 100);
    DbOptions options = DbOptions.builder().filterAllocation(FilterAllocation.BY_LEVEL)
        .filterMemoryBytes(1_000_000).build();
    assertEquals(1.0, new FilterChoice(options, () -> spent).forFlush(1_000).bitsPerKey(), 1e-9);
    TreeShape room = new TreeShape(new long[] {1_000}, new long[] {0, 0, 100_000, 0, 0, 0, 0, 0}, 0);
    assertTrue(new FilterChoice(options, () -> room).forFlush(1_000).bitsPerKey() > 20);
  }

  @Test
  void ribbonUnderABound_spendsWhatRibbonSavesOnLowerRates() throws IOException {
    Version v = tree();
    DbOptions bloom = DbOptions.builder().filterAllocation(FilterAllocation.BY_LEVEL)
        .filterMemoryBytes(128_000 * 4 / 8).build();
    DbOptions ribbon = bloom.toBuilder().ribbonFromLevel(2).build();
    Compaction intoLast = new Compaction(1, 2, v.level(1), v.level(2));
    TableOptions lastBloom = new FilterChoice(bloom, () -> TreeShape.of(v)).forCompaction(intoLast, v);
    TableOptions lastRibbon = new FilterChoice(ribbon, () -> TreeShape.of(v)).forCompaction(intoLast, v);
    assertEquals(FilterKind.RIBBON, lastRibbon.filterKind());
    // The Ribbon table is given the Bloom bits of the rate it reaches: a lower rate than the
    // all-Bloom plan's for the same memory.
    assertTrue(lastRibbon.bitsPerKey() > lastBloom.bitsPerKey(),
        lastRibbon.bitsPerKey() + " vs " + lastBloom.bitsPerKey());
  }

  /**
   * Near the bound, a compaction into the deepest level leaves the level-0 tables the plan expects
   * their room (its many keys give way a little each); a flush then still gets its plan.
   */
  @Test
  void nearTheBound_theDeepestLevelLeavesLevelZeroItsRoom() throws IOException {
    Version v = tree();
    leavesLevelZeroItsRoom(v, new Compaction(1, 2, v.level(1), v.level(2)), 60_000, 110_000);
  }

  /**
   * Near the bound, a compaction into a level above the deepest leaves level 0 its room too: the
   * flush after it keeps its plan instead of the one-bit floor, and the compaction's tables give
   * way.
   */
  @Test
  void nearTheBound_aCompactionIntoAnyLevelLeavesLevelZeroItsRoom() throws IOException {
    Version v = tree();
    leavesLevelZeroItsRoom(v, new Compaction(0, 1, v.level(0), v.level(1)), 95_000, 13_000);
  }

  /**
   * With the tables of {@code v} holding {@code spentBytes} of a bound of 100,000 (none of it in
   * level 0), compaction {@code c}, writing {@code written} entries, gets less than what the bound
   * alone leaves it, and a flush after it still gets its plan.
   */
  private static void leavesLevelZeroItsRoom(Version v, Compaction c, long spentBytes,
      long written) {
    TreeShape of = TreeShape.of(v);
    TreeShape spent = new TreeShape(of.level0Tables(), of.levels(), spentBytes, 0, of.tables());
    DbOptions options = DbOptions.builder().filterAllocation(FilterAllocation.BY_LEVEL)
        .filterMemoryBytes(100_000).build();
    FilterChoice choice = new FilterChoice(options, () -> spent);
    double share = 4096.0 / (4096 + FilterChoice.CHUNK_OVERHEAD_BYTES);
    double bits = choice.forCompaction(c, v).bitsPerKey();
    double withoutRoom = (100_000 - spentBytes) * 8.0 / written * share; // the bound alone
    assertTrue(bits < 0.95 * withoutRoom, bits + " against " + withoutRoom);
    double flush = choice.forFlush(1_000).bitsPerKey();
    assertTrue(flush > 10, "the flush keeps its plan: " + flush);
  }
}
