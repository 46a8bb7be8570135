package dev.strata.bench.dbbench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Starts the child process of a phase and waits for it, with a time limit: a child that fails or
 * hangs fails the run with a clear error that names the phase, quotes the end of its log, and
 * never leaves the parent waiting. Each child is a fresh JVM on this jar (or this classpath, under
 * test) with the JVM flags given, so no phase inherits the heap, caches or JIT state of another.
 *
 * <p>Immutable.
 */
public final class ChildLauncher {
  /** Lines of a failed child's log quoted in the error. */
  private static final int TAIL_LINES = 25;

  private final List<String> jvmFlags;
  private final Path tmpDir;
  private final long timeoutSeconds;

  /**
   * A launcher of children run with {@code jvmFlags}, extracting native libraries into {@code
   * tmpDir}, each killed after {@code timeoutSeconds}.
   */
  public ChildLauncher(List<String> jvmFlags, Path tmpDir, long timeoutSeconds) {
    this.jvmFlags = List.copyOf(jvmFlags);
    this.tmpDir = tmpDir;
    this.timeoutSeconds = timeoutSeconds;
  }

  /**
   * The JVM flags of this process that children should share: heap sizes and {@code -XX} options;
   * {@code defaultHeap} when no {@code -Xmx} is among them. Agents and debugging flags stay out.
   */
  public static List<String> inheritedFlags(String defaultHeap) {
    List<String> flags = new ArrayList<>();
    boolean heap = false;
    for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (arg.startsWith("-Xmx") || arg.startsWith("-Xms") || arg.startsWith("-Xss")
          || arg.startsWith("-XX:")) {
        flags.add(arg);
        heap |= arg.startsWith("-Xmx");
      }
    }
    if (!heap) {
      flags.add(defaultHeap);
    }
    return flags;
  }

  /** The JVM flags children get. */
  public List<String> jvmFlags() {
    return jvmFlags;
  }

  /** Runs {@code phase} in a child, logging to {@code log}; IOException when it fails or hangs. */
  void run(Phase phase, List<String> args, Path log) throws IOException {
    run(phase.toString(), PhaseMain.class.getName(), args, log);
  }

  /**
   * Runs {@code mainClass} with {@code args} in a child named {@code phase} in errors, logging to
   * {@code log}; IOException when it fails (a non-zero exit) or hangs.
   */
  public void run(String phase, String mainClass, List<String> args, Path log)
      throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmFlags);
    command.add("-Djava.io.tmpdir=" + tmpDir.toAbsolutePath());
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(mainClass);
    command.addAll(args);
    Files.createDirectories(log.getParent());
    Files.createDirectories(tmpDir);
    Files.writeString(log, String.join(" ", command) + "\n", StandardCharsets.UTF_8);
    Process p = new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
        .start();
    boolean done;
    try {
      done = p.waitFor(timeoutSeconds, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while running " + phase, e);
    }
    if (!done) {
      p.destroyForcibly();
      try {
        p.waitFor(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      throw new IOException(phase + ": the child process did not finish within " + timeoutSeconds
          + " s and was killed (raise --phase-timeout for larger runs); log " + log + ":\n"
          + tail(log));
    }
    if (p.exitValue() != 0) {
      throw new IOException(phase + ": the child process failed with status " + p.exitValue()
          + "; log " + log + ":\n" + tail(log));
    }
  }

  private static String tail(Path log) throws IOException {
    List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
    return String.join("\n", lines.subList(Math.max(0, lines.size() - TAIL_LINES), lines.size()));
  }
}
