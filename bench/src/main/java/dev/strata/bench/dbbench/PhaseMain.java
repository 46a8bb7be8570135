package dev.strata.bench.dbbench;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The entry point of a child process: runs one phase and writes its row to the result file. The
 * parent starts it as {@code java <the parent's heap flags> -cp <this jar>
 * dev.strata.bench.dbbench.PhaseMain --out=DIR --engine=E --benchmark=B --threads=N
 * --cache-state=warm|cold --step=N --result=FILE}; the settings come from {@code
 * DIR/run.properties}.
 * Exit status 0 with the file written, or 1 with the failure on standard error.
 *
 * <p>Not thread-safe: a process's main.
 */
public final class PhaseMain {
  private PhaseMain() {}

  /** Runs the phase named by {@code args}; exits 0 on success, 1 on any failure. */
  public static void main(String[] args) {
    int status;
    try {
      Map<String, String> a = parse(args);
      Path out = Path.of(required(a, "out"));
      RunConfig config = RunConfig.read(out.resolve(RunConfig.FILE));
      Phase phase = new Phase(EngineKind.parse(required(a, "engine")),
          Benchmark.parse(required(a, "benchmark")), Integer.parseInt(required(a, "threads")),
          required(a, "cache-state").equals("cold"), Integer.parseInt(required(a, "step")));
      Result r = new PhaseRunner(config, phase, out).run();
      ResultsFile.write(Path.of(required(a, "result")), List.of(r));
      status = 0;
    } catch (Throwable t) {
      t.printStackTrace();
      status = 1;
    }
    // Daemon threads of the engines must not keep the process alive, nor make it wait.
    System.exit(status);
  }

  private static Map<String, String> parse(String[] args) {
    Map<String, String> a = new HashMap<>();
    for (String arg : args) {
      int eq = arg.indexOf('=');
      if (!arg.startsWith("--") || eq < 0) {
        throw new IllegalArgumentException("expected --name=value, got " + arg);
      }
      a.put(arg.substring(2, eq), arg.substring(eq + 1));
    }
    return a;
  }

  private static String required(Map<String, String> a, String name) {
    String v = a.get(name);
    if (v == null) {
      throw new IllegalArgumentException("missing --" + name);
    }
    return v;
  }
}
