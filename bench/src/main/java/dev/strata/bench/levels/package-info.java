/**
 * {@code strata-bench filterlevels}: filter memory and false positives per level under the filter
 * allocations and beside RocksDB's Bloom and Ribbon ({@link dev.strata.bench.levels.FilterLevelsCommand}).
 */
package dev.strata.bench.levels;
