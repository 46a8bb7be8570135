package dev.strata.engine.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's embedding example compiles (it is this package's source), runs, and is quoted exactly. */
final class ReadmeExampleTest {
  @TempDir Path dir;

  @Test
  void example_runsAndPrintsWhatItWrote() throws Exception {
    PrintStream original = System.out;
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
    try {
      EmbeddingExample.run(dir);
    } finally {
      System.setOut(original);
    }
    assertEquals("Ada\nlang\nname\n", printed.toString(StandardCharsets.UTF_8).replace("\r", ""));
  }

  @Test
  void readme_quotesTheExampleVerbatim() throws Exception {
    Path source = Path.of("src/test/java/dev/strata/engine/example/EmbeddingExample.java");
    String code = Files.readString(source);
    String body =
        code.substring(
            code.indexOf("// README-EXAMPLE-START") + "// README-EXAMPLE-START".length(),
            code.indexOf("    // README-EXAMPLE-END"));
    String dedented =
        body.strip()
            .lines()
            .map(l -> l.startsWith("    ") ? l.substring(4) : l)
            .collect(Collectors.joining("\n"));
    String readme = Files.readString(Path.of("../README.md"));
    assertTrue(readme.contains(dedented), "README.md must quote EmbeddingExample verbatim:\n" + dedented);
  }
}
