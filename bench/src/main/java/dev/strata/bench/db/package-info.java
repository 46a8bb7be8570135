/**
 * JMH benchmarks of the engine's read API ({@code dev.strata.engine.Db}) as an application calls
 * it: {@link dev.strata.bench.db.MultiGetBenchmark} compares batched Gets with the same Gets one by
 * one; {@link dev.strata.bench.db.PutBenchmark} measures the write path's garbage (bytes allocated
 * per put, background flushes and compactions included, with {@code -prof gc}).
 *
 * <pre>{@code
 * java -cp bench/target/strata-bench.jar org.openjdk.jmh.Main MultiGetBenchmark
 * java -cp bench/target/strata-bench.jar org.openjdk.jmh.Main PutBenchmark -prof gc
 * }</pre>
 */
package dev.strata.bench.db;
