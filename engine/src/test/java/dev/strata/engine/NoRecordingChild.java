package dev.strata.engine;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/**
 * The child process of {@link FlightRecordingOffTest}: in a JVM where no Flight Recorder recording
 * exists, opens a database in {@code args[0]}, writes, flushes, compacts and reads it (Gets and a
 * batched Get), then prints {@code ok}. The parent reads the JVM's class-loading log.
 */
final class NoRecordingChild {
  private NoRecordingChild() {}

  public static void main(String[] args) throws Exception {
    DbOptions options = DbOptions.builder().autoCompaction(false).build();
    try (Db db = Db.open(Path.of(args[0]), options)) {
      for (int t = 0; t < 2; t++) {
        db.put(b("k" + t), b("v" + t));
        db.flush();
      }
      db.compact();
    }
    try (Db db = Db.open(Path.of(args[0]), options)) {
      if (!"v1".equals(new String(db.get(b("k1")), StandardCharsets.UTF_8))) {
        throw new AssertionError("k1");
      }
      if (db.multiGet(List.of(b("k0"), b("k1"))).contains(null)) {
        throw new AssertionError("multiGet");
      }
    }
    System.out.println("ok");
  }

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
