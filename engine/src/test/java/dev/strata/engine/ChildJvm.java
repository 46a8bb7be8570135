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
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx256m");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(main.getName());
    command.addAll(List.of(args));
    return new ProcessBuilder(command).redirectError(stderr.toFile()).start();
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
