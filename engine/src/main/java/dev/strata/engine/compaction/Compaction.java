package dev.strata.engine.compaction;

import dev.strata.engine.manifest.FileMetadata;
import dev.strata.engine.version.TableRef;
import dev.strata.engine.version.Version;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One compaction the picker chose: tables of {@code level} merged with the tables of {@code
 * outputLevel} they overlap, written to {@code outputLevel}.
 *
 * @param level the level compacted ({@link #ALL_LEVELS} for a manual compaction of everything)
 * @param outputLevel where the outputs go
 * @param inputs the tables of {@code level} (of every level for a manual compaction)
 * @param outputLevelInputs the tables of {@code outputLevel} that overlap {@code inputs}
 *
 * <p>Immutable.
 */
public record Compaction(
    int level, int outputLevel, List<TableRef> inputs, List<TableRef> outputLevelInputs) {

  /** {@link #level()} of a manual compaction of the whole tree. */
  public static final int ALL_LEVELS = -1;

  public Compaction {
    inputs = List.copyOf(inputs);
    outputLevelInputs = List.copyOf(outputLevelInputs);
  }

  /**
   * The rewrite of table {@code t} alone into its own level (a filter refit, {@link FilterRefit}):
   * nothing merges with it, and it is never a trivial move.
   */
  public static Compaction refit(TableRef t) {
    int level = t.metadata().level();
    return new Compaction(level, level, List.of(t), List.of());
  }

  /** Whether this rewrites tables of a level into that level ({@link #refit}). */
  public boolean isRefit() {
    return level >= 1 && level == outputLevel;
  }

  /** Every input table. */
  public List<TableRef> allInputs() {
    List<TableRef> all = new ArrayList<>(inputs);
    all.addAll(outputLevelInputs);
    return all;
  }

  /** The input tables' bytes on disk: what the compaction reads. */
  public long inputBytes() {
    long sum = 0;
    for (TableRef t : allInputs()) {
      sum += t.metadata().fileSize();
    }
    return sum;
  }

  /**
   * True when the compaction can move its inputs down a level without rewriting them: nothing in
   * the output level overlaps the span of their rows, so nothing needs merging. Below level 0 that
   * is one table (LevelDB's trivial move); from level 0 it is every input when no two share a row,
   * as a load or a restore in key order flushes them (RocksDB moves such level-0 tables too).
   *
   * <p>Why no row can be shadowed wrongly: each row of the inputs is in one input only, so the
   * newest-first order of level 0 decides nothing among them; a level-0 compaction takes all of
   * level 0 ({@link CompactionPicker#levelZero}), so no older level-0 table stays above them; the
   * output level has nothing in their span, so level 1 keeps one table per row; and every deeper
   * level holds only older versions, as before. Tables flushed after the pick are newer and stay
   * in level 0, which reads consult first. Nothing is dropped, so snapshots and tombstones see
   * exactly the entries they saw.
   */
  public boolean isTrivialMove() {
    if (!outputLevelInputs.isEmpty()) {
      return false;
    }
    if (level > 0) {
      return inputs.size() == 1 && !isRefit();
    }
    return level == 0 && outputLevel == 1 && rowsDisjoint(inputs);
  }

  /** Whether no two of {@code tables} share a row, a boundary row included: level 1's rule. */
  private static boolean rowsDisjoint(List<TableRef> tables) {
    List<FileMetadata> byRow = new ArrayList<>();
    tables.forEach(t -> byRow.add(t.metadata()));
    byRow.sort((a, b) -> Arrays.compareUnsigned(a.smallest().row(), b.smallest().row()));
    for (int i = 1; i < byRow.size(); i++) {
      if (Arrays.compareUnsigned(byRow.get(i - 1).largest().row(), byRow.get(i).smallest().row())
          >= 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * The tables of the first level below the output level that overlap the inputs' rows (RocksDB's
   * grandparents), in {@code base}; the outputs are cut at their boundaries.
   */
  public List<FileMetadata> grandparents(Version base) {
    List<FileMetadata> out = new ArrayList<>();
    for (int level = outputLevel + 1; level < Version.NUM_LEVELS && out.isEmpty(); level++) {
      overlapping(base, level, allInputs()).forEach(t -> out.add(t.metadata()));
    }
    return out;
  }

  /** The tables of {@code level} in {@code v} that overlap the rows {@code tables} span. */
  static List<TableRef> overlapping(Version v, int level, List<TableRef> tables) {
    byte[][] span = rowSpan(tables);
    return span == null ? List.of() : v.overlapping(level, span[0], span[1]);
  }

  /** The smallest and the largest row of {@code tables}; null when there are none. */
  static byte[][] rowSpan(List<TableRef> tables) {
    byte[] from = null;
    byte[] to = null;
    for (TableRef t : tables) {
      FileMetadata m = t.metadata();
      if (from == null || Arrays.compareUnsigned(m.smallest().row(), from) < 0) {
        from = m.smallest().row();
      }
      if (to == null || Arrays.compareUnsigned(m.largest().row(), to) > 0) {
        to = m.largest().row();
      }
    }
    return from == null ? null : new byte[][] {from, to};
  }
}
