package dev.strata.bench.ycsb;

import dev.strata.bench.dbbench.ChildLauncher;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code strata-bench ycsb}: YCSB 0.17.0's own client and CoreWorkload A-F against Strata and
 * RocksDB, one binding each written the same way, the parity settings of {@code dbbench}, one JVM
 * per phase.
 *
 * <pre>
 * java -jar bench/target/strata-bench.jar ycsb --records 1000000 --operations 1000000 \
 *     --cache-mb 48 --threads 1,2 --out ycsb-report          # data about 20x the cache
 * java -jar bench/target/strata-bench.jar ycsb --records 2000 --operations 2000 --tree smoke \
 *     --cache-mb 1 --out /tmp/ycsb                            # seconds
 * </pre>
 *
 * <p>Not thread-safe: one instance per invocation.
 */
@Command(
    name = "ycsb",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "YCSB 0.17.0 (its Client and CoreWorkload A-F) against Strata and RocksDB in the parity"
          + " setup of dbbench; each phase in its own JVM, in YCSB's order: load, a, b, c, f, d,"
          + " then a fresh load and e.",
      "Writes results.csv, report.md, ycsb.png and each phase's workload file, log and YCSB"
          + " output into --out."
    })
public final class YcsbCommand implements Callable<Integer> {
  @Option(names = "--records", required = true, paramLabel = "N",
      description = "Records loaded (recordcount).")
  private long records;

  @Option(names = "--operations", required = true, paramLabel = "N",
      description = "Operations of every run phase (operationcount; at least 1).")
  private long operations;

  @Option(names = "--out", required = true, paramLabel = "DIR", description = "Output folder.")
  private Path out;

  @Option(names = "--threads", split = ",", defaultValue = "1", paramLabel = "N",
      description = "Client threads, a list; the whole sequence runs for each."
          + " Default: ${DEFAULT-VALUE}.")
  private List<Integer> threads;

  @Option(names = "--cache-mb", defaultValue = "48", paramLabel = "MB",
      description = "Block cache of each engine, MiB. Default: ${DEFAULT-VALUE}.")
  private double cacheMb;

  @Option(names = "--bits-per-key", defaultValue = "10", paramLabel = "B",
      description = "Filter bits per key of each engine. Default: ${DEFAULT-VALUE}.")
  private double bitsPerKey;

  @Option(names = "--tree", defaultValue = "standard", paramLabel = "T",
      description = "standard (64 MiB memtables and files, 256 MiB level 1) or smoke (1 MiB,"
          + " for tests). Default: ${DEFAULT-VALUE}.")
  private String tree;

  @Option(names = "--field-count", defaultValue = "10", paramLabel = "N",
      description = "Fields per record. Default: ${DEFAULT-VALUE}.")
  private int fieldCount;

  @Option(names = "--field-length", defaultValue = "100", paramLabel = "N",
      description = "Bytes per field. Default: ${DEFAULT-VALUE}.")
  private int fieldLength;

  @Option(names = "--engines", split = ",", defaultValue = "strata,rocksdb", paramLabel = "E",
      description = "Engines. Default: ${DEFAULT-VALUE}.")
  private List<String> engines;

  @Option(names = "--workloads", split = ",", defaultValue = "load,a,b,c,f,d,load-e,e",
      paramLabel = "W", description = "Phases in order. Default: ${DEFAULT-VALUE}.")
  private List<String> workloads;

  @Option(names = "--db-dir", paramLabel = "DIR",
      description = "Folder of the databases (default: DIR/db under --out).")
  private Path dbDir;

  @Option(names = "--jvm-args", paramLabel = "FLAGS",
      description = "JVM flags of every phase, space separated (default: this JVM's -Xmx, -Xms"
          + " and -XX flags, or -Xmx4g).")
  private String jvmArgs;

  @Option(names = "--phase-timeout", defaultValue = "3600", paramLabel = "S",
      description = "Seconds after which a phase is killed. Default: ${DEFAULT-VALUE}.")
  private long phaseTimeout;

  @Override
  public Integer call() throws IOException {
    if (records < 1 || operations < 1) {
      throw new IllegalArgumentException("--records and --operations must be at least 1");
    }
    BindingConfig.tree(tree);
    Files.createDirectories(out);
    List<String> flags = jvmArgs != null
        ? Arrays.asList(jvmArgs.trim().split("\\s+"))
        : ChildLauncher.inheritedFlags("-Xmx4g");
    YcsbSettings s = new YcsbSettings(records, operations, fieldCount, fieldLength,
        List.copyOf(threads), engines.stream().map(YcsbEngine::parse).toList(),
        workloads.stream().map(Workload::parse).toList(), (long) (cacheMb * (1 << 20)),
        bitsPerKey, tree, out, dbDir != null ? dbDir : out.resolve("db"), flags, phaseTimeout);
    long start = System.nanoTime();
    List<YcsbRow> rows = new ArrayList<>();
    String failure = null;
    try {
      new YcsbRun(s, System.out).run(rows);
    } catch (IOException | RuntimeException e) {
      failure = e.getMessage();
      throw e;
    } finally {
      YcsbResults.write(out.resolve(YcsbResults.FILE), rows);
      List<Path> plots = rows.isEmpty() ? List.of() : YcsbPlots.write(out, rows);
      YcsbReport report = new YcsbReport(s, rows, plots, (System.nanoTime() - start) / 1e9,
          failure);
      Files.writeString(out.resolve("report.md"), report.markdown());
      System.out.print(report.ratioMatrix());
      System.out.println("results: " + out.resolve(YcsbResults.FILE) + ", report: "
          + out.resolve("report.md"));
    }
    return 0;
  }
}
