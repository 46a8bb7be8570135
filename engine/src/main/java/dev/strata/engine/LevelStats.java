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
 * @param expectedFalsePositiveRate the false positives this level's filters give, by their model,
 *     to a Get of an absent row drawn uniformly over the tree's row range: the sum over its tables
 *     of the table's rate times the table's share of that range, the chance that the row falls
 *     between the table's smallest and largest row, which is when a Get probes its filter (each
 *     level-0 table whose range holds the row; in a deeper level the one table whose range holds
 *     it, or none when the row falls between two tables). A row's place in the range is its first 8
 *     bytes after the prefix the tree's smallest and largest rows share, as a fraction (see {@code
 *     RowSpace}); random fixed-length keys are uniform in it. A table without a filter has rate 1;
 *     a table's rate is the one it was built for: the blocked Bloom model's at the bits per key the
 *     manifest records (a Ribbon table was built for that rate). Summed over the levels, the
 *     expected false positives of such a Get
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
