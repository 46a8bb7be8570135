package dev.strata.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A child JVM some tests run, its output in a file. */
record ChildJvm(int exit, String output) {
  /** Starts {@code main} in a child JVM on this JVM's class path, its stderr to {@code stderr}. */
  static Process start(Class<?> main, Path stderr, String... args) throws IOException {
    return new ProcessBuilder(command(main, List.of(), args)).redirectError(stderr.toFile()).start();
  }

  /**
   * Starts {@code main} in a child JVM on this JVM's class path that logs every class it loads to
   * its stdout, which goes with its stderr to {@code output}.
   */
  static Process startLoggingClasses(Class<?> main, Path output, String... args)
      throws IOException {
    return new ProcessBuilder(command(main, List.of("-Xlog:class+load=info:stdout"), args))
        .redirectErrorStream(true)
        .redirectOutput(output.toFile())
        .start();
  }

  private static List<String> command(Class<?> main, List<String> flags, String... args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx256m");
    command.addAll(flags);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(main.getName());
    command.addAll(List.of(args));
    return command;
  }

  /** Waits up to two minutes for {@code p}, which writes to {@code output}; fails when it hangs. */
  static ChildJvm await(Process p, Path output) throws IOException, InterruptedException {
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      p.waitFor();
      throw new AssertionError("the child did not finish: " + Files.readString(output));
    }
    return new ChildJvm(p.exitValue(), Files.readString(output));
  }
}
