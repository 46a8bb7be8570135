package dev.strata.bench.ycsb;

import dev.strata.bench.dbbench.Tree;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Properties;

/**
 * The engine settings a YCSB child reads from its properties ({@code -p name=value}), the same for
 * both engines: where the database lives, the block cache, the filter and the tree.
 *
 * @param dir the database folder
 * @param cacheBytes block cache capacity
 * @param bitsPerKey filter bits per key
 * @param tree the leveled tree of both engines
 *
 * <p>Immutable.
 */
record BindingConfig(Path dir, long cacheBytes, double bitsPerKey, Tree tree) {
  static final String DIR = "strata.ycsb.dir";
  static final String CACHE_BYTES = "strata.ycsb.cachebytes";
  static final String BITS_PER_KEY = "strata.ycsb.bitsperkey";
  static final String TREE = "strata.ycsb.tree";

  /** The tree named {@code name}: standard (64 MiB memtables and files) or smoke (1 MiB). */
  static Tree tree(String name) {
    return switch (name.toLowerCase(Locale.ROOT)) {
      case "standard" -> Tree.STANDARD;
      case "smoke" -> Tree.SMOKE;
      default -> throw new IllegalArgumentException("unknown tree '" + name
          + "'; known: standard, smoke");
    };
  }

  static BindingConfig from(Properties p) {
    String dir = p.getProperty(DIR);
    if (dir == null) {
      throw new IllegalArgumentException("property " + DIR + " is missing");
    }
    return new BindingConfig(Path.of(dir),
        Long.parseLong(p.getProperty(CACHE_BYTES, Long.toString(48L << 20))),
        Double.parseDouble(p.getProperty(BITS_PER_KEY, "10")),
        tree(p.getProperty(TREE, "standard")));
  }
}
