package dev.strata.engine;

/**
 * One level of the tree as {@link Db#levelStats()} gives it, from the manifest alone (nothing is
 * read from disk).
 *
 * @param level the level, 0 to 6
 * @param tables the tables it holds (at least one)
 * @param entries their entries, tombstones and overwritten versions included
 * @param bytes their files' bytes
 * @param filterBytes the bytes of their filters (chunks, filter index and row-tombstone filter)
 * @param filterBitsPerKey the filters' memory in bits per entry: {@code filterBytes * 8 / entries}
 *     (0 without filters). Ribbon tables spend fewer bits than Bloom tables for the same rate
 * @param expectedFalsePositiveRate the false positives a Get of an absent key expects from this
 *     level by the filters' model: at level 0 the sum over its tables (a Get probes each), deeper
 *     the tables' rates weighted by entries (a Get probes the one table whose range holds the key);
 *     1 per table without a filter. A table's rate is the one it was built for: the blocked Bloom
 *     model's at the bits per key the manifest records (a Ribbon table was built for that rate)
 *
 * <p>Immutable.
 */
public record LevelStats(
    int level,
    int tables,
    long entries,
    long bytes,
    long filterBytes,
    double filterBitsPerKey,
    double expectedFalsePositiveRate) {}
