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
    return from == null ? List.of() : v.overlapping(level, from, to);
  }
}
