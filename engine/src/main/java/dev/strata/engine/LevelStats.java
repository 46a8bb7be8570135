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
 * @param filterBitsPerKey the bits per filter key their filters were built with, averaged over the
 *     tables weighted by entries (0 without filters)
 * @param expectedFalsePositiveRate the false positives a Get of an absent key expects from this
 *     level by the filters' model: at level 0 the sum over its tables (a Get probes each), deeper
 *     the tables' rates weighted by entries (a Get probes the one table whose range holds the key);
 *     1 per table without a filter
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
