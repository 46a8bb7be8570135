package dev.strata.engine.compaction;

import dev.strata.engine.version.TableRef;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a level-0 compaction is cut into key-range jobs that run in parallel (RocksDB's
 * subcompactions): at first rows of the output level's input tables, so the jobs rewrite about
 * equal shares of level 1. Level 0's tables each span most of the key space (a memtable of random
 * writes), so they give no useful cut; their bytes are assumed spread as level 1's. The jobs' rows
 * are disjoint, so are their outputs, and the compaction installs them all as one edit.
 */
final class Subcompactions {
  private Subcompactions() {}

  /**
   * Up to {@code maxJobs - 1} rows, ascending, each the first row of a table of {@code
   * outputLevelInputs} (sorted, disjoint) but the first: job i takes [bound i-1, bound i). Empty
   * when the compaction stays one job (one job allowed, or fewer than two tables to cut between).
   */
  static List<byte[]> boundaries(List<TableRef> outputLevelInputs, int maxJobs) {
    int jobs = Math.min(maxJobs, outputLevelInputs.size());
    if (jobs < 2) {
      return List.of();
    }
    long total = 0;
    for (TableRef t : outputLevelInputs) {
      total += t.metadata().fileSize();
    }
    List<byte[]> bounds = new ArrayList<>();
    long before = 0; // bytes of the tables before the current one
    for (TableRef t : outputLevelInputs) {
      // Cut before t when the tables before it reach the next share: job k ends near k/jobs.
      long share = total * (bounds.size() + 1) / jobs;
      if (before > 0 && before >= share && bounds.size() < jobs - 1) {
        bounds.add(t.metadata().smallest().row());
      }
      before += t.metadata().fileSize();
    }
    return bounds;
  }
}
