package dev.strata.sstable.testing;

import dev.strata.sstable.key.InternalKey;
import java.util.Arrays;

/**
 * One table entry for tests: an internal key and its value, compared by content.
 *
 * <p>Immutable by convention (the arrays are shared).
 */
public record Entry(InternalKey key, byte[] value) {
  @Override
  public boolean equals(Object o) {
    return o instanceof Entry e && key.equals(e.key) && Arrays.equals(value, e.value);
  }

  @Override
  public int hashCode() {
    return 31 * key.hashCode() + Arrays.hashCode(value);
  }

  @Override
  public String toString() {
    return key + "=" + value.length + "B";
  }
}
