/**
 * JMH benchmarks of the engine's read API ({@code dev.strata.engine.Db}) as an application calls
 * it: {@link dev.strata.bench.db.MultiGetBenchmark} compares batched Gets with the same Gets one by
 * one.
 *
 * <pre>{@code
 * java -cp bench/target/strata-bench.jar org.openjdk.jmh.Main MultiGetBenchmark
 * }</pre>
 */
package dev.strata.bench.db;
