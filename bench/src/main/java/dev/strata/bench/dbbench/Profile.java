package dev.strata.bench.dbbench;

import java.util.List;

/**
 * Named sizes of a run; every value can be overridden by its own flag.
 *
 * <ul>
 *   <li>{@code smoke}: seconds; what CI runs. 30,000 keys in a tree scaled down 64 times, so
 *       flushes and compactions still happen.
 *   <li>{@code default}: 2.5 million keys (about 290 MB of keys and values, about 230 MB on disk
 *       per engine with LZ4 at ratio 0.5) against an 8 MiB block cache: the data is over 25 times
 *       the cache. About 10 minutes on 2 cores.
 *   <li>{@code large}: 20 million keys, 64 MiB cache: the db_bench-style run at scale.
 *   <li>{@code xl}: 100 million keys, 64 MiB cache; by hand.
 * </ul>
 *
 * @param label name on the command line
 * @param num keys of the narrow database and cells of the wide one
 * @param cacheMb block cache of every engine, MiB
 * @param durationSeconds measured seconds of each read phase
 * @param warmupSeconds warm-up seconds before each read phase (same operation, other keys)
 * @param threads reader thread counts of the read phases
 * @param heap the children's {@code -Xmx}, unless the parent's is given
 * @param tree the leveled tree of both engines
 * @param phaseTimeoutSeconds a child process running longer than this is killed, failing the run
 *
 * <p>Immutable.
 */
record Profile(String label, long num, double cacheMb, double durationSeconds,
    double warmupSeconds, List<Integer> threads, String heap, Tree tree, long phaseTimeoutSeconds) {

  static final List<Profile> ALL = List.of(
      new Profile("smoke", 30_000, 1, 0.5, 0.2, List.of(1, 2), "-Xmx256m", Tree.SMOKE, 120),
      new Profile("default", 2_500_000, 8, 5, 3, List.of(1, 2), "-Xmx2g", Tree.STANDARD, 1_200),
      new Profile("large", 20_000_000, 64, 30, 10, List.of(1, 2), "-Xmx4g", Tree.STANDARD, 4 * 3600),
      new Profile("xl", 100_000_000, 64, 60, 20, List.of(1, 2), "-Xmx8g", Tree.STANDARD, 12 * 3600));

  /** The profile named {@code label}; IllegalArgumentException listing the names otherwise. */
  static Profile named(String label) {
    for (Profile p : ALL) {
      if (p.label.equals(label)) {
        return p;
      }
    }
    throw new IllegalArgumentException("unknown profile '" + label + "'; known: "
        + String.join(",", ALL.stream().map(Profile::label).toList()));
  }
}
