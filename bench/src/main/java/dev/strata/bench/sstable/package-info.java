/**
 * SSTable benchmarks: point Gets on one table with the filter on and off and the block cache warm
 * and cold ({@link dev.strata.bench.sstable.SstableGetBenchmark}), and the first Get after open with
 * a partitioned versus a whole-table filter ({@link dev.strata.bench.sstable.SstableFirstGetBenchmark}).
 * Depends on {@code dev.strata.sstable} and JMH.
 *
 * <pre>{@code
 * java -cp bench/target/strata-bench.jar org.openjdk.jmh.Main SstableGetBenchmark
 * java -cp bench/target/strata-bench.jar org.openjdk.jmh.Main SstableFirstGetBenchmark
 * }</pre>
 */
package dev.strata.bench.sstable;
