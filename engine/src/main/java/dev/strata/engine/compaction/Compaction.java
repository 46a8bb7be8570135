package dev.strata.engine.compaction;

import dev.strata.engine.version.TableRef;
import java.util.ArrayList;
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

  /** Every input table. */
  public List<TableRef> allInputs() {
    List<TableRef> all = new ArrayList<>(inputs);
    all.addAll(outputLevelInputs);
    return all;
  }

  /**
   * True when the compaction can move its one table down a level without rewriting it: nothing in
   * the output level overlaps, so nothing needs merging (LevelDB's trivial move).
   */
  public boolean isTrivialMove() {
    return level > 0 && inputs.size() == 1 && outputLevelInputs.isEmpty();
  }
}
