package dev.strata.engine.log;

import dev.strata.engine.write.Limits;
import dev.strata.engine.write.MarkerUpdate;
import dev.strata.engine.write.Mutation;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Seeded generators of mutations and batches for the log tests. Not thread-safe. */
final class LogGens {

  private LogGens() {}

  static byte[] bytes(Random r, int length) {
    byte[] b = new byte[length];
    r.nextBytes(b);
    return b;
  }

  /** A value: usually small, sometimes empty, rarely up to {@code maxLarge} bytes. */
  static byte[] value(Random r, int maxLarge) {
    int p = r.nextInt(100);
    if (p < 15) {
      return new byte[0];
    } else if (p < 95 || maxLarge <= 64) {
      return bytes(r, 1 + r.nextInt(64));
    }
    return bytes(r, 1 + r.nextInt(maxLarge));
  }

  static Mutation mutation(Random r, int maxLarge) {
    int rowLength = r.nextInt(50) == 0 ? Limits.MAX_ROW_LENGTH : 1 + r.nextInt(24);
    int columnLength = r.nextInt(50) == 0 ? Limits.MAX_COLUMN_LENGTH : r.nextInt(12);
    byte[] row = bytes(r, rowLength);
    switch (r.nextInt(5)) {
      case 0:
        return Mutation.delete(row, bytes(r, columnLength));
      case 1:
        return Mutation.deleteRow(row);
      default:
        return Mutation.put(row, bytes(r, columnLength), value(r, maxLarge));
    }
  }

  static List<Mutation> batch(Random r, int maxOps, int maxLarge) {
    int n = r.nextInt(maxOps + 1);
    List<Mutation> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(mutation(r, maxLarge));
    }
    return out;
  }

  /** Commit marker updates: none for most records, else up to the per-batch limit. */
  static List<MarkerUpdate> markers(Random r) {
    int n = r.nextInt(3) == 0 ? 1 + r.nextInt(Math.min(70, Limits.MAX_COMMIT_MARKERS_PER_BATCH)) : 0;
    List<MarkerUpdate> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      byte[] name = bytes(r, r.nextInt(20) == 0 ? Limits.MAX_COMMIT_MARKER_NAME_LENGTH
          : 1 + r.nextInt(16));
      out.add(r.nextInt(4) == 0 ? MarkerUpdate.remove(name)
          : new MarkerUpdate(name, bytes(r, r.nextInt(20) == 0
              ? Limits.MAX_COMMIT_MARKER_VALUE_LENGTH : r.nextInt(16))));
    }
    return out;
  }

  /** Records with consecutive sequence numbers from a random start. */
  static List<LogRecord> records(Random r, int count, int maxOps, int maxLarge) {
    long sequence = r.nextInt(3) == 0 ? r.nextInt(1000) : (long) (r.nextDouble() * (1L << 50));
    List<LogRecord> out = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      List<Mutation> ops = batch(r, maxOps, maxLarge);
      out.add(new LogRecord(sequence, ops, markers(r)));
      sequence += ops.size();
    }
    return out;
  }
}
