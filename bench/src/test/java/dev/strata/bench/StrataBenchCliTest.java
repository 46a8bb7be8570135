package dev.strata.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The {@code strata-bench} command line: subcommand wiring, options and the quick paths. */
final class StrataBenchCliTest {

  @Test
  void execute_noSubcommand_failsNamingTheProblem() {
    CliRun run = CliRun.of();
    assertEquals(2, run.status());
    assertTrue(run.err().contains("Missing subcommand"), run.err());
    assertTrue(run.err().contains("filters"), "usage lists the subcommands: " + run.err());
  }

  @Test
  void filters_help_describesTheOptions() {
    CliRun run = CliRun.of("help", "filters");
    assertEquals(0, run.status());
    for (String option : new String[] {"--keys", "--build-keys", "--quick", "--fpr-queries"}) {
      assertTrue(run.out().contains(option), option + " missing from: " + run.out());
    }
  }

  @Test
  void filters_badKeys_isAUsageError() {
    CliRun run = CliRun.of("filters", "--keys", "1000,0", "--skip-fpr", "--skip-jmh");
    assertEquals(2, run.status());
    assertTrue(run.err().contains("--keys must be >= 1"), run.err());
  }

  @Test
  void filters_quickFprOnly_printsTheFprTableForBothLayouts() {
    CliRun run = CliRun.of("filters", "--quick", "--skip-jmh");
    assertEquals(0, run.status(), run.err());
    String out = run.out();
    assertTrue(out.contains("False-positive rate, measured vs model"), out);
    assertTrue(out.contains("measured") && out.contains("model") && out.contains("ratio"), out);
    for (String layout : new String[] {"BLOCKED", "CLASSIC"}) {
      for (String bits : new String[] {"6", "8", "10", "10.5", "12", "16", "20"}) {
        String row = layout + "\\s+" + Pattern.quote(bits) + "\\s.*";
        assertTrue(
            out.lines().anyMatch(line -> line.matches(row)),
            "no " + layout + " row at " + bits + " bits/key: " + out);
      }
    }
    assertTrue(out.contains("BLOCKED FPR at 10.0 bits/key, in %: <= 1.02"), out);
    assertNotEquals(-1, out.indexOf("Targets"), out);
  }

  @Test
  void filters_quickJmhInProcess_printsLookupAndBuildTables() {
    CliRun run = CliRun.of("filters", "--quick", "--skip-fpr", "--kinds", "BLOCKED,CLASSIC");
    assertEquals(0, run.status(), run.err());
    String out = run.out();
    assertTrue(out.contains("Lookup cost, ns per lookup"), out);
    assertTrue(out.contains("Build cost, ns per key"), out);
    for (String input : new String[] {"pre-hashed", "16-byte key"}) {
      for (String lookup : new String[] {"negative", "positive"}) {
        assertTrue(
            out.lines().anyMatch(line -> line.contains(lookup) && line.contains(input)),
            "no " + lookup + " " + input + " row: " + out);
      }
    }
    assertTrue(out.contains("CLASSIC/BLOCKED"), out);
  }
}
