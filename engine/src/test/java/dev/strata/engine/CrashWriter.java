package dev.strata.engine;

import java.io.PrintStream;
import java.nio.file.Path;

/**
 * The child process of {@link CrashRecoveryTest}: opens the database in {@code args[0]} and performs
 * the steps of run {@code args[1]} (a seed) from step 0 on, printing each step's id on its own line
 * once the step returned (was acknowledged), until it is killed.
 */
final class CrashWriter {
  private CrashWriter() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    long seed = Long.parseLong(args[1]);
    PrintStream out = new PrintStream(System.out, false, "UTF-8");
    try (Db db = Db.open(dir, CrashWorkload.options())) {
      out.println("open");
      out.flush();
      for (long id = 0; ; id++) {
        CrashWorkload.step(seed, id).applyTo(db);
        out.println(id);
        out.flush();
      }
    }
  }
}
