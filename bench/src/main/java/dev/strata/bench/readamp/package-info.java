/**
 * The read-amplification benchmark, {@code strata-bench readamp}: the same cells loaded into
 * Strata and RocksDB (rocksdbjni, a dependency of {@code bench} only) as N overlapping level-0
 * tables and as one compacted run, read as absent rows, absent columns, present cells and whole
 * rows, with each engine's own counters ({@code DbStats}; RocksDB Statistics tickers and
 * PerfContext) around every measured pass. Output: a terminal table, {@code results.csv}, {@code
 * fpr_sweep.csv}, {@code report.md} and PNG plots (xchart), all inside {@code --out}.
 *
 * <p>{@link dev.strata.bench.readamp.ReadAmpCommand} is the entry point; {@code ReadAmpRun} drives
 * the loads and passes over two {@code Target}s ({@code StrataTarget}, {@code RocksDbTarget}).
 *
 * <pre>{@code
 * // java -jar bench/target/strata-bench.jar readamp --out /tmp/readamp
 * int status = StrataBench.commandLine().execute("readamp", "--keys", "2000", "--tables", "1,2",
 *     "--gets", "200", "--fpr-bits", "", "--quiet", "--out", "/tmp/readamp-smoke");
 * }</pre>
 */
package dev.strata.bench.readamp;
