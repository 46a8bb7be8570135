package dev.strata.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** A child JVM some tests run, its output in a file. */
record ChildJvm(int exit, String output) {
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
