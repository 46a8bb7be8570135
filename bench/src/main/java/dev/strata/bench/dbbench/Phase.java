package dev.strata.bench.dbbench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One phase of a run: a benchmark on one engine configuration with a thread count and a cache
 * state. The parent turns it into the arguments of a child process; the child parses them back.
 *
 * @param engine the engine configuration
 * @param benchmark the benchmark
 * @param threads reader threads (1 for writes)
 * @param cold whether the database's files are evicted from the OS page cache before the phase
 * @param step the position of its benchmark in {@code --benchmarks}, from 1: a benchmark listed
 *     twice (readrandom before and after an overwrite) measures two points
 *
 * <p>Immutable.
 */
record Phase(EngineKind engine, Benchmark benchmark, int threads, boolean cold, int step) {

  /** "warm" or "cold", as in the results. */
  String cacheState() {
    return cold ? "cold" : "warm";
  }

  /** A file-name-safe name, unique within a run once prefixed by the phase's number. */
  String slug() {
    return benchmark.label() + "-" + engine.label() + "-t" + threads + "-" + cacheState();
  }

  /** The child's arguments for this phase, with the run's output folder and result file. */
  List<String> args(Path out, Path result) {
    List<String> a = new ArrayList<>();
    a.add("--out=" + out.toAbsolutePath());
    a.add("--engine=" + engine.label());
    a.add("--benchmark=" + benchmark.label());
    a.add("--threads=" + threads);
    a.add("--cache-state=" + cacheState());
    a.add("--step=" + step);
    a.add("--result=" + result.toAbsolutePath());
    return a;
  }

  @Override
  public String toString() {
    return benchmark.label() + " on " + engine.label() + ", " + threads + " thread"
        + (threads == 1 ? "" : "s") + ", " + cacheState();
  }
}
