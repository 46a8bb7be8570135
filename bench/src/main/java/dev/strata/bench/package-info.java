/**
 * The {@code strata-bench} command line ({@link dev.strata.bench.StrataBench}): one picocli
 * subcommand per tool, each living in the package of what it measures or inspects. The bench module
 * sits on top of the layering and may depend on every Strata module and on the benchmark-only
 * libraries (JMH, Guava, lz4-java, picocli); nothing depends on it.
 *
 * <pre>{@code
 * // java -jar bench/target/strata-bench.jar filters --quick
 * int status = StrataBench.commandLine().execute("filters", "--quick");
 * }</pre>
 */
package dev.strata.bench;
