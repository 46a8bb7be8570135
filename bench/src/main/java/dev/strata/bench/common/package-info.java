/**
 * Pieces the benchmarks that compare Strata with RocksDB share, so each exists once: db_bench-style
 * compressible values ({@link dev.strata.bench.common.CompressibleValues}), the seeded bijective
 * mixer behind every key stream ({@link dev.strata.bench.common.Mix}), the way a result cell is
 * printed ({@link dev.strata.bench.common.Cells}), the RocksDB JNI loader that keeps a run inside its
 * output folder ({@link dev.strata.bench.common.RocksDbLibrary}), wide rows on RocksDB's flat keys
 * ({@link dev.strata.bench.common.RocksDbRows}), the look of every PNG ({@link
 * dev.strata.bench.common.Charts}), and deleting a run's folders ({@link
 * dev.strata.bench.common.FileTrees}). Both {@code readamp} and {@code dbbench} use them; nothing here
 * knows either benchmark.
 *
 * <pre>{@code
 * CompressibleValues values = new CompressibleValues(100, 0.5, seed);
 * byte[] v = values.value(i);                 // 100 bytes that LZ4 shrinks to about 50
 * String cell = Cells.format(1234.5678901);    // "1234.57": six significant digits, null = ""
 * }</pre>
 */
package dev.strata.bench.common;
