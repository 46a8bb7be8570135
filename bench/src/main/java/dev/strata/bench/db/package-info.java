/**
 * JMH benchmarks of the engine's read API ({@code dev.strata.engine.Db}) as an application calls
 * it: {@link dev.strata.bench.db.MultiGetBenchmark} compares batched Gets with the same Gets one by
 * one; {@link dev.strata.bench.db.PutBenchmark} measures the write path's garbage (bytes allocated
 * per put, background flushes and compactions included, with {@code -prof gc});
 * {@link dev.strata.bench.db.MemTableBenchmark} the memtable alone (a fill in random key order,
 * and a walk in key order as a flush reads it).
 *
 * <pre>{@code
 * java -cp bench/target/strata-bench.jar org.openjdk.jmh.Main MultiGetBenchmark
 * java -cp bench/target/strata-bench.jar org.openjdk.jmh.Main PutBenchmark -prof gc
 * java -cp bench/target/strata-bench.jar org.openjdk.jmh.Main MemTableBenchmark
 * }</pre>
 */
package dev.strata.bench.db;
