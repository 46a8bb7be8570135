package dev.strata.engine.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.engine.DbOptions;
import dev.strata.engine.manifest.FileMetadata;
import dev.strata.engine.version.TableRef;
import dev.strata.engine.version.Version;
import dev.strata.sstable.key.InternalKey;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which compaction the picker chooses, on versions of table entries (no files are read). */
class CompactionPickerTest {
  private static final long MIB = 1 << 20;

  @TempDir Path dir;
  private TableEntries entries;
  private final CompactionPicker picker =
      new CompactionPicker(
          DbOptions.builder()
              .level0CompactionTrigger(4)
              .maxBytesForLevelBase(4 * MIB)
              .levelSizeMultiplier(10)
              .build());

  @BeforeEach
  void open() {
    entries = new TableEntries(dir);
  }

  @AfterEach
  void close() {
    entries.close();
  }

  @Test
  void levelZeroAtItsTriggerIsCompactedWhenNoLevelIsFuller() throws IOException {
    List<List<TableRef>> levels = emptyLevels();
    for (int i = 0; i < 4; i++) {
      levels.get(0).add(0, table(0, "a", "z", MIB));
    }
    levels.get(1).add(table(1, "a", "m", 2 * MIB));
    Compaction c = picker.pick(Version.of(levels));
    assertEquals(0, c.level());
    assertEquals(4, c.inputs().size());
    assertEquals(1, c.outputLevelInputs().size());
  }

  @Test
  void aLevelFurtherPastItsLimitGoesBeforeLevelZero() throws IOException {
    // Level 0 at its trigger scores 1; level 1 at twice its limit scores 2. Compacting level 0
    // first would rewrite all of the oversized level 1 and let it grow further.
    List<List<TableRef>> levels = emptyLevels();
    for (int i = 0; i < 4; i++) {
      levels.get(0).add(0, table(0, "a", "z", MIB));
    }
    levels.get(1).add(table(1, "a", "f", 4 * MIB));
    levels.get(1).add(table(1, "g", "p", 4 * MIB));
    Version v = Version.of(levels);
    assertEquals(1.0, picker.score(v, 0));
    assertEquals(2.0, picker.score(v, 1));
    assertEquals(1, picker.pick(v).level());
  }

  @Test
  void levelZeroBelowItsTriggerIsNotDueWhateverItsBytes() throws IOException {
    List<List<TableRef>> levels = emptyLevels();
    for (int i = 0; i < 3; i++) {
      levels.get(0).add(0, table(0, "a", "z", 8 * MIB));
    }
    Version v = Version.of(levels);
    assertFalse(picker.needsCompaction(v));
    assertNull(picker.pick(v));
  }

  @Test
  void levelZeroPastTheTriggerScoresItsBytesAgainstTheLevelOneLimit() throws IOException {
    List<List<TableRef>> levels = emptyLevels();
    for (int i = 0; i < 4; i++) {
      levels.get(0).add(0, table(0, "a", "z", 3 * MIB));
    }
    assertEquals(3.0, picker.score(Version.of(levels), 0));
  }

  @Test
  void fromADeeperLevelTheTableOverlappingTheLeastBelowForItsSizeIsChosen() throws IOException {
    List<List<TableRef>> levels = emptyLevels();
    TableRef heavy = table(1, "a", "c", 2 * MIB); // overlaps 20 MiB below: ratio 10
    TableRef light = table(1, "d", "f", 3 * MIB); // overlaps 6 MiB: ratio 2
    TableRef small = table(1, "g", "i", MIB); // overlaps 4 MiB: ratio 4
    levels.get(1).addAll(List.of(heavy, light, small));
    levels.get(2).add(table(2, "a", "b", 10 * MIB));
    levels.get(2).add(table(2, "c", "c", 10 * MIB));
    levels.get(2).add(table(2, "e", "e", 6 * MIB));
    levels.get(2).add(table(2, "h", "h", 4 * MIB));
    Version v = Version.of(levels);
    assertTrue(picker.score(v, 1) >= 1);
    Compaction c = picker.pick(v);
    assertEquals(1, c.level());
    assertSame(light, c.inputs().get(0));
    assertEquals(1, c.outputLevelInputs().size());
    assertEquals("e", row(c.outputLevelInputs().get(0).metadata().smallest()));
  }

  @Test
  void aTableOverlappingNothingBelowIsChosenAndMovesTrivially() throws IOException {
    List<List<TableRef>> levels = emptyLevels();
    levels.get(1).add(table(1, "a", "c", 3 * MIB));
    levels.get(1).add(table(1, "x", "z", 3 * MIB));
    levels.get(2).add(table(2, "a", "b", MIB));
    Compaction c = picker.pick(Version.of(levels));
    assertEquals("x", row(c.inputs().get(0).metadata().smallest()));
    assertTrue(c.isTrivialMove());
  }

  /**
   * Level-0 tables whose rows are disjoint, as a key-ordered load flushes them, move to level 1
   * without a rewrite when level 1 has nothing in their span; tables that share a row, even only
   * a boundary row, or that level 1 overlaps, are merged.
   */
  @Test
  void levelZeroTablesWithDisjointRows_moveTrivially_unlessTheyShareARowOrLevelOneOverlaps()
      throws IOException {
    List<List<TableRef>> disjoint = emptyLevels();
    for (String[] span : new String[][] {{"a", "b"}, {"c", "d"}, {"e", "f"}, {"g", "h"}}) {
      disjoint.get(0).add(0, table(0, span[0], span[1], MIB));
    }
    Compaction c = picker.levelZero(Version.of(disjoint));
    assertEquals(4, c.inputs().size());
    assertTrue(c.isTrivialMove());

    List<List<TableRef>> sharing = emptyLevels();
    for (String[] span : new String[][] {{"a", "b"}, {"b", "d"}}) {
      sharing.get(0).add(0, table(0, span[0], span[1], MIB));
    }
    assertFalse(picker.levelZero(Version.of(sharing)).isTrivialMove());

    List<List<TableRef>> below = emptyLevels();
    below.get(0).add(0, table(0, "a", "b", MIB));
    below.get(0).add(0, table(0, "x", "z", MIB));
    below.get(1).add(table(1, "m", "n", MIB));
    assertFalse(picker.levelZero(Version.of(below)).isTrivialMove());
  }

  @Test
  void grandparentsAreTheFirstLevelBelowTheOutputThatOverlaps() throws IOException {
    List<List<TableRef>> levels = emptyLevels();
    levels.get(1).add(table(1, "d", "f", 8 * MIB));
    levels.get(2).add(table(2, "e", "e", MIB));
    levels.get(3).add(table(3, "x", "z", MIB)); // outside the inputs' rows
    levels.get(4).add(table(4, "a", "b", MIB));
    levels.get(4).add(table(4, "c", "g", MIB));
    Version v = Version.of(levels);
    Compaction c = picker.pick(v);
    assertEquals(2, c.outputLevel());
    List<FileMetadata> grandparents = c.grandparents(v);
    assertEquals(1, grandparents.size());
    assertEquals(4, grandparents.get(0).level());
    assertEquals("c", row(grandparents.get(0).smallest()));
  }

  private static List<List<TableRef>> emptyLevels() {
    return TableEntries.emptyLevels();
  }

  private TableRef table(int level, String from, String to, long bytes) throws IOException {
    return entries.table(level, from, to, bytes);
  }

  private static String row(InternalKey k) {
    return new String(k.row(), StandardCharsets.UTF_8);
  }
}
