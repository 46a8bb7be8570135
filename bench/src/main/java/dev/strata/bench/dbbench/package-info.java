/**
 * {@code strata-bench dbbench}: RocksDB's db_bench workloads run on Strata and on RocksDB side by
 * side, at sizes where the data is far larger than the block cache, in a real leveled tree.
 *
 * <h2>Why it is built this way</h2>
 *
 * <p>A comparison is only worth its fairness. Both engines get the same keys (16 bytes, derived
 * from one seed by {@link dev.strata.bench.dbbench.KeySpace}; fillrandom's order is a seeded
 * {@link dev.strata.bench.dbbench.Permutation}, so every key is written once and none is held in
 * memory), the same db_bench-style compressible values, and the same tree: memtable size, level-0
 * trigger, target file size, level-1 size and multiplier go into Strata's {@code DbOptions} and
 * RocksDB's {@code Options} from one {@link dev.strata.bench.dbbench.Tree}. RocksDB runs in the
 * project's parity setup (index and filter blocks in the cache at high priority, partitioned
 * filters and index) with an LRU cache and, on the same database, with a HyperClockCache. Each
 * engine's complete options are written into the output folder.
 *
 * <p>Every phase of every engine runs in its own JVM ({@link dev.strata.bench.dbbench.PhaseMain},
 * started by {@link dev.strata.bench.dbbench.ChildLauncher}), so no phase inherits another's heap,
 * garbage, caches or JIT state, and process-wide counters ({@code /proc/self/io}, {@code VmHWM},
 * GC pauses) belong to one engine and one phase. The parent only plans ({@link
 * dev.strata.bench.dbbench.Plan}), launches with a time limit, and collects each child's CSV row;
 * a child that fails or hangs fails the run with its log quoted, never a hang.
 *
 * <p>Inside a child, {@link dev.strata.bench.dbbench.PhaseRunner} measures: a write phase times
 * every put, flushes and waits until compaction has quiesced ({@link
 * dev.strata.bench.dbbench.Quiescence}), so write amplification includes what the writes cost in
 * the end; a read phase times the first operation and first 1,000 after open, warms up, then
 * measures for a fixed time on N threads ({@link dev.strata.bench.dbbench.LoadRunner}, one
 * HdrHistogram per thread). The engines' own counters ({@link dev.strata.bench.dbbench.Store})
 * and the process's are read around the measured period only. A value an engine cannot report
 * stays an empty cell.
 *
 * <pre>{@code
 * // java -jar bench/target/strata-bench.jar dbbench --profile smoke --out /tmp/dbbench
 * int status = StrataBench.commandLine().execute("dbbench", "--profile", "smoke",
 *     "--benchmarks", "fillrandom,readrandom,readmissing", "--threads", "1,2",
 *     "--out", "/tmp/dbbench");
 * }</pre>
 */
package dev.strata.bench.dbbench;
