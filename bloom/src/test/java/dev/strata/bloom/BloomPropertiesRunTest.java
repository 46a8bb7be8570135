package dev.strata.bloom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * Proves that the build runs this module's property classes ({@code *Properties}, which surefire's
 * default patterns would miss; the root pom includes them): runs after every other test class of
 * the module ({@code junit-platform.properties} orders classes by {@link Order}) and checks that
 * each {@code *Properties} class compiled into the test classes started in this JVM ({@link
 * TestClassesRun}). Dropping the include, or a tag that excludes them, fails it. Run alone (say
 * with {@code -Dtest=BloomPropertiesRunTest}), there is nothing to compare against, and it is
 * skipped.
 */
@Order(Integer.MAX_VALUE)
final class BloomPropertiesRunTest {

  @Test
  void everyPropertiesClass_ranInThisBuild() throws IOException, URISyntaxException {
    Set<String> ran = TestClassesRun.names();
    assumeTrue(ran.stream().anyMatch(n -> !n.equals(BloomPropertiesRunTest.class.getName())),
        "run with the module's other test classes");
    Path classes = Path.of(BloomPropertiesRunTest.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    Set<String> properties;
    try (Stream<Path> files = Files.walk(classes)) {
      properties = files.map(p -> classes.relativize(p).toString())
          .filter(p -> p.endsWith("Properties.class") && !p.contains("$"))
          .map(p -> p.substring(0, p.length() - ".class".length()).replace('/', '.'))
          .collect(Collectors.toCollection(TreeSet::new));
    }
    assertFalse(properties.isEmpty(), "no *Properties class found under " + classes);
    Set<String> missing = new TreeSet<>(properties);
    missing.removeAll(ran);
    assertEquals(Set.of(), missing, "property classes that did not run (ran: " + new TreeSet<>(ran) + ")");
  }
}
