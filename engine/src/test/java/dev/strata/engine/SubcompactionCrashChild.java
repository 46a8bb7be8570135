package dev.strata.engine;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The child process of {@link SubcompactionTest}'s crash: performs the steps of {@link
 * CrashWorkload} run {@code args[1]} on the database in {@code args[0]} with subcompactions on,
 * printing each step's id once acknowledged, and halts the JVM (exit status {@link #HALTED}) in the
 * middle of a subcompaction: when a subcompaction thread creates the second table of the run, so
 * other jobs of that compaction may have written tables of their own. Exits 0 if it never does.
 */
public final class SubcompactionCrashChild {
  static final int HALTED = 77;
  static final long MAX_STEPS = 200_000;

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    long seed = Long.parseLong(args[1]);
    PrintStream out = new PrintStream(System.out, false, "UTF-8");
    AtomicInteger subcompactionTables = new AtomicInteger();
    TableCreationHook halting =
        new TableCreationHook(
            table -> {
              if (Thread.currentThread().getName().startsWith("strata-subcompaction-")
                  && subcompactionTables.incrementAndGet() == 2) {
                Runtime.getRuntime().halt(HALTED);
              }
            });
    DbOptions options = CrashWorkload.options().toBuilder().maxSubcompactions(3).build();
    try (Db db = Db.open(dir, options, EngineHooks.NONE.withFileLayer(halting))) {
      for (long id = 0; id < MAX_STEPS; id++) {
        CrashWorkload.step(seed, id).applyTo(db);
        out.println(id);
        out.flush();
      }
    }
  }
}
