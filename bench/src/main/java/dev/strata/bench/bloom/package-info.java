/**
 * Filter and hash benchmarks: JMH suites for lookups ({@link
 * dev.strata.bench.bloom.FilterQueryBenchmark}), builds ({@link
 * dev.strata.bench.bloom.FilterBuildBenchmark}) and key hashes ({@link
 * dev.strata.bench.bloom.KeyHashBenchmark}) of the blocked filter, the classic filter and Guava's
 * {@code BloomFilter}; the measured-versus-model false-positive table ({@link
 * dev.strata.bench.bloom.FprTable}); and the {@code filters} subcommand that runs them all with a
 * short configuration. Depends on {@code dev.strata.bloom} only, plus JMH, Guava, lz4-java and
 * hash4j.
 *
 * <pre>{@code
 * FprTable.Config config = FprTable.Config.defaults().withSizes(100_000, 100_000);
 * for (FprTable.Row row : FprTable.run(config)) {
 *   System.out.printf("%s %s b/key: %.3f%% (model %.3f%%)%n",
 *       row.kind(), row.bitsPerKey(), 100 * row.measuredFpr(), 100 * row.modelFpr());
 * }
 * }</pre>
 */
package dev.strata.bench.bloom;
