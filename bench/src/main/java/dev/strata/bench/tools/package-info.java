/**
 * The table tools of {@code strata-bench}: {@code inspect TABLE} (a table's properties, blocks,
 * compression and filter chunks, like {@code sst_dump}), {@code verify DIR} (the manifest and
 * every block checksum of every table; non-zero exit naming the damage) and {@code stats DIR}
 * (opens the database, taking its lock, and prints levels, tables and {@code DbStats}). They sit
 * in {@code bench}, on top of the layering, and read only through the engine's manifest reader and
 * the sstable reader (which also lists a table's filter chunks and data blocks for them).
 *
 * <pre>{@code
 * // java -jar bench/target/strata-bench.jar verify /data/db
 * int status = StrataBench.commandLine().execute("verify", "/data/db"); // 0: intact, 1: damaged
 * }</pre>
 */
package dev.strata.bench.tools;
