package dev.strata.bench;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/**
 * What one in-process {@code strata-bench} invocation returned and printed; the tests of every
 * subcommand run the command line through it.
 *
 * @param status the exit status
 * @param out what it printed to standard output
 * @param err what it printed to standard error
 */
public record CliRun(int status, String out, String err) {

  /** Runs {@code strata-bench args...} in this JVM, capturing both streams. */
  public static CliRun of(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = StrataBench.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    int status = cli.execute(args);
    return new CliRun(status, out.toString(), err.toString());
  }
}
