/**
 * Shared test fixtures of the sstable module, shipped in its test-jar for the engine's tests: random
 * sorted cells ({@link dev.strata.sstable.testing.RandomCells}), file damage ({@link
 * dev.strata.sstable.testing.CorruptFiles}, and {@link dev.strata.sstable.testing.FuzzedDamage} for
 * fuzz tests), seeded trials that print their seed ({@link dev.strata.sstable.testing.Seeded}),
 * table writing ({@link dev.strata.sstable.testing.Tables}), and the leak check that runs after
 * every test ({@link dev.strata.sstable.testing.LeakCheckExtension}).
 *
 * <pre>{@code
 * Seeded.run("round trip", 50, random -> {
 *   List<Entry> entries = new RandomCells(random).entries(500);
 *   Tables.write(dir.resolve("000001.sst"), TableOptions.defaults(), entries);
 * });
 * }</pre>
 */
package dev.strata.sstable.testing;
