package dev.strata.bench.dbbench;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The phases of a run in the order they run. Benchmarks run in the order given; one may be listed
 * more than once (readrandom before and after an overwrite). A phase that changes a database (a
 * fill, overwrite) runs once per database: the two RocksDB configurations share theirs, so the
 * first RocksDB configuration listed runs it (readwhileoverwriting once per thread count, in the
 * warm state). A read benchmark runs for every thread count and cache state, the engines side by
 * side at each point. getrowrandom needs the wide-row database: unless it exists already, a
 * fillrows phase fills it first.
 *
 * <p>Immutable.
 */
final class Plan {
  private final List<Phase> phases;

  private Plan(List<Phase> phases) {
    this.phases = List.copyOf(phases);
  }

  List<Phase> phases() {
    return phases;
  }

  /**
   * The plan of {@code benchmarks} on {@code engines}; IllegalArgumentException when a benchmark
   * would find no database (a read or overwrite with no fill before it and no existing database),
   * or a fill is asked of an existing database.
   */
  static Plan of(List<Benchmark> benchmarks, List<EngineKind> engines, List<Integer> threads,
      List<Boolean> coldStates, boolean useExistingDb) {
    Map<String, EngineKind> writers = new LinkedHashMap<>();
    for (EngineKind e : engines) {
      writers.putIfAbsent(e.storage(), e);
    }
    Set<Benchmark.Layout> filled = EnumSet.noneOf(Benchmark.Layout.class);
    if (useExistingDb) {
      filled.addAll(EnumSet.allOf(Benchmark.Layout.class));
    }
    List<Phase> phases = new ArrayList<>();
    for (int i = 0; i < benchmarks.size(); i++) {
      Benchmark b = benchmarks.get(i);
      int step = i + 1;
      if (b.kind() == Benchmark.Kind.FILL && useExistingDb) {
        throw new IllegalArgumentException(b.label() + " creates a new database; it cannot run"
            + " with --use-existing-db");
      }
      if (b == Benchmark.GETROWRANDOM && !filled.contains(Benchmark.Layout.WIDE)) {
        writers.values()
            .forEach(e -> phases.add(new Phase(e, Benchmark.FILLROWS, 1, false, step)));
        filled.add(Benchmark.Layout.WIDE);
      }
      if (b.kind() != Benchmark.Kind.FILL && !filled.contains(b.layout())) {
        throw new IllegalArgumentException(b.label() + " needs a database: list fillseq or"
            + " fillrandom before it, or pass --use-existing-db");
      }
      if (b.writesOnce()) {
        for (int t : b.writesUnderReads() ? threads : List.of(1)) {
          writers.values().forEach(e -> phases.add(new Phase(e, b, t, false, step)));
        }
        filled.add(b.layout());
        continue;
      }
      for (int t : threads) {
        for (boolean cold : coldStates) {
          for (EngineKind e : engines) {
            phases.add(new Phase(e, b, t, cold, step));
          }
        }
      }
    }
    return new Plan(phases);
  }
}
