package dev.strata.bloom;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Records the name of every test class that starts in this JVM: registered for every test class of
 * the module through {@code META-INF/services} (JUnit's extension autodetection is on in the root
 * pom), so that {@link BloomPropertiesRunTest} can see which classes the build really ran.
 */
public final class TestClassesRun implements BeforeAllCallback {
  private static final Set<String> RAN = ConcurrentHashMap.newKeySet();

  @Override
  public void beforeAll(ExtensionContext context) {
    context.getTestClass().ifPresent(c -> RAN.add(c.getName()));
  }

  /** The test classes that have started so far. */
  static Set<String> names() {
    return Set.copyOf(RAN);
  }
}
