package dev.strata.bench;

import dev.strata.bench.bloom.FiltersCommand;
import dev.strata.bench.cache.CacheHeapCommand;
import dev.strata.bench.cache.CacheSimCommand;
import dev.strata.bench.dbbench.ColdReadsCommand;
import dev.strata.bench.dbbench.MultiGetMixCommand;
import dev.strata.bench.dbbench.CompactionReadsCommand;
import dev.strata.bench.dbbench.DbBenchCommand;
import dev.strata.bench.levels.FilterLevelsCommand;
import dev.strata.bench.readamp.ReadAmpCommand;
import dev.strata.bench.tools.InspectCommand;
import dev.strata.bench.tools.StatsCommand;
import dev.strata.bench.tools.VerifyCommand;
import dev.strata.bench.ycsb.YcsbCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The {@code strata-bench} command line, the Main-Class of {@code bench/target/strata-bench.jar}.
 * Each tool is a picocli subcommand class; adding one is that class plus its entry in {@code
 * subcommands} below.
 *
 * <pre>
 * java -jar bench/target/strata-bench.jar filters            # the filter benchmark, a few minutes
 * java -jar bench/target/strata-bench.jar filters --quick    # smoke test, seconds
 * java -jar bench/target/strata-bench.jar help filters
 * </pre>
 *
 * <p>The JMH suites stay runnable directly: {@code java -cp bench/target/strata-bench.jar
 * org.openjdk.jmh.Main -l}.
 *
 * <p>Not thread-safe: one instance per invocation.
 */
@Command(
    name = "strata-bench",
    mixinStandardHelpOptions = true,
    version = "strata-bench 0.1.0-SNAPSHOT",
    description = "Strata's benchmarks and table tools.",
    subcommands = {
      HelpCommand.class,
      FiltersCommand.class,
      ReadAmpCommand.class,
      DbBenchCommand.class,
      InspectCommand.class,
      VerifyCommand.class,
      StatsCommand.class,
      CacheSimCommand.class,
      CacheHeapCommand.class,
      CompactionReadsCommand.class,
      ColdReadsCommand.class,
      MultiGetMixCommand.class,
      YcsbCommand.class,
      FilterLevelsCommand.class,
    })
public final class StrataBench implements Runnable {
  @Spec private CommandSpec spec;

  /** Without a subcommand there is nothing to do: say which exist. */
  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "Missing subcommand");
  }

  /** A picocli command line for {@code strata-bench}, for {@link #main} and tests. */
  public static CommandLine commandLine() {
    return new CommandLine(new StrataBench());
  }

  /** Runs the command named by {@code args} and exits with its status. */
  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }
}
