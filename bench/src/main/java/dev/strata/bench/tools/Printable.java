package dev.strata.bench.tools;

/**
 * Renders keys for people: printable ASCII as is, every other byte as {@code \xNN}, long keys cut
 * with their length.
 *
 * <p>Immutable (static methods only).
 */
final class Printable {
  /** Bytes shown before a key is cut. */
  private static final int MAX_SHOWN = 48;

  private Printable() {}

  static String bytes(byte[] b) {
    StringBuilder s = new StringBuilder();
    int shown = Math.min(b.length, MAX_SHOWN);
    for (int i = 0; i < shown; i++) {
      int c = b[i] & 0xff;
      if (c >= 0x20 && c < 0x7f && c != '\\') {
        s.append((char) c);
      } else {
        s.append(String.format("\\x%02x", c));
      }
    }
    if (shown < b.length) {
      s.append("...(").append(b.length).append(" bytes)");
    }
    return s.toString();
  }

  /** {@code row} or {@code row/column} when the column is not empty. */
  static String cell(byte[] row, byte[] column) {
    return column.length == 0 ? bytes(row) : bytes(row) + "/" + bytes(column);
  }
}
