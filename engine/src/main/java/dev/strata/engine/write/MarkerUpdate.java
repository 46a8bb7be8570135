package dev.strata.engine.write;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * One change to a database's commit markers, carried by a write batch and applied atomically with
 * its data: set the marker {@code name} to {@code value}, or remove it ({@code value} null). The
 * arrays are not copied: {@code WriteBatch} hands over its own copies. Equality compares the bytes.
 * Immutable by convention.
 *
 * @param name the marker's name, 1 to {@link Limits#MAX_COMMIT_MARKER_NAME_LENGTH} bytes
 * @param value the new value, 0 to {@link Limits#MAX_COMMIT_MARKER_VALUE_LENGTH} bytes, or null for
 *     a removal
 */
public record MarkerUpdate(byte[] name, byte[] value) {

  public MarkerUpdate {
    Objects.requireNonNull(name, "name");
  }

  /** A removal of the marker {@code name}. */
  public static MarkerUpdate remove(byte[] name) {
    return new MarkerUpdate(name, null);
  }

  /** True for a removal. */
  public boolean isRemoval() {
    return value == null;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof MarkerUpdate u
        && Arrays.equals(name, u.name)
        && Arrays.equals(value, u.value);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(name) + Arrays.hashCode(value);
  }

  @Override
  public String toString() {
    String n = HexFormat.of().formatHex(name);
    return value == null ? "remove[" + n + "]" : "set[" + n + ", " + value.length + " bytes]";
  }
}
