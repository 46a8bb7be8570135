package dev.strata.sstable.format;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** A lazy logger answers as the logger {@code System.getLogger} gives for the same name. */
final class LazyLoggerTest {
  @Test
  void answersAsTheSystemLoggerOfItsName() {
    System.Logger lazy = LazyLogger.of(LazyLoggerTest.class);
    System.Logger real = System.getLogger(LazyLoggerTest.class.getName());
    assertEquals(real.getName(), lazy.getName());
    for (System.Logger.Level level : System.Logger.Level.values()) {
      assertEquals(real.isLoggable(level), lazy.isLoggable(level), level.toString());
    }
    lazy.log(System.Logger.Level.DEBUG, "a message below the default level goes nowhere");
  }
}
