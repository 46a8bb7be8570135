package dev.strata.bench.ycsb;

import java.util.Locale;

/**
 * An engine under YCSB and its binding class.
 *
 * <p>Immutable.
 */
enum YcsbEngine {
  STRATA("strata", StrataBinding.class),
  ROCKSDB("rocksdb", RocksDbBinding.class);

  private final String label;
  private final Class<? extends KvBinding> binding;

  YcsbEngine(String label, Class<? extends KvBinding> binding) {
    this.label = label;
    this.binding = binding;
  }

  String label() {
    return label;
  }

  /** The class YCSB's {@code -db} names. */
  String bindingClass() {
    return binding.getName();
  }

  static YcsbEngine parse(String label) {
    for (YcsbEngine e : values()) {
      if (e.label.equals(label.trim().toLowerCase(Locale.ROOT))) {
        return e;
      }
    }
    throw new IllegalArgumentException("unknown engine '" + label + "'; known: strata, rocksdb");
  }
}
