package dev.strata.kafka.bench;

import dev.strata.engine.Compression;
import dev.strata.engine.DbOptions;
import dev.strata.kafka.StrataStores;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.processor.BatchingStateRestoreCallback;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.internals.RecordBatchingStateRestoreCallback;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * The same Kafka Streams topology (a keyed count, Kafka's record cache off so every event reaches
 * the store) on the Strata store and on Kafka Streams' default RocksDB store given the same block
 * cache and memtable size, each engine in its own JVM: events per second through the topology
 * ({@link TopologyTestDriver}: the topology and the store, no broker), the store's restore rate
 * (a changelog of one record per key through the restore callback the store registers, in batches
 * of 1,000 as the changelog reader's polls), and the process's resident memory after each.
 *
 * <pre>
 * mvn -q -B -o test-compile dependency:build-classpath -Dmdep.outputFile=cp.txt -pl kafka-streams -am
 * java -cp "$(cat kafka-streams/cp.txt):kafka-streams/target/test-classes:kafka-streams/target/classes:engine/target/classes:sstable/target/classes:bloom/target/classes" \
 *     dev.strata.kafka.bench.KafkaStoreBenchmark --events 10000000 --keys 1000000 --out /tmp/ks
 * </pre>
 *
 * <p>Not thread-safe: a process's main.
 */
public final class KafkaStoreBenchmark {
  private static final int RESTORE_BATCH = 1000;

  private KafkaStoreBenchmark() {}

  /** The settings of a run, from {@code --name value} arguments. */
  record Settings(long events, int keys, long cacheBytes, long memtableBytes, Path out,
      List<String> engines, String heap, boolean shuffledRestore, Compression compression) {
    static Settings parse(String[] args) {
      Map<String, String> a = new HashMap<>();
      for (int i = 0; i + 1 < args.length; i += 2) {
        a.put(args[i].replaceFirst("^--", ""), args[i + 1]);
      }
      return new Settings(Long.parseLong(a.getOrDefault("events", "10000000")),
          Integer.parseInt(a.getOrDefault("keys", "1000000")),
          (long) (Double.parseDouble(a.getOrDefault("cache-mb", "1")) * (1 << 20)),
          (long) (Double.parseDouble(a.getOrDefault("memtable-mb", "8")) * (1 << 20)),
          Path.of(a.getOrDefault("out", "kafka-bench")),
          List.of(a.getOrDefault("engines", "strata,rocksdb").split(",")),
          a.getOrDefault("heap", "-Xmx1g"),
          "shuffled".equals(a.getOrDefault("restore-order", "key")),
          Compression.valueOf(a.getOrDefault("strata-compression", "LZ4").toUpperCase(Locale.ROOT)));
    }

    String[] childArgs(String engine) {
      return new String[] {"--events", Long.toString(events), "--keys", Integer.toString(keys),
          "--cache-mb", Double.toString(cacheBytes / 1048576.0),
          "--memtable-mb", Double.toString(memtableBytes / 1048576.0), "--out", out.toString(),
          "--engines", engine, "--restore-order", shuffledRestore ? "shuffled" : "key",
          "--strata-compression", compression.name(),
          "--child", "true"};
    }
  }

  /** One engine's figures. */
  record Result(String engine, long events, double processSeconds, double processRssMib,
      double stateMib, long restored, double restoreSeconds, double restoreRssMib,
      double peakRssMib, long countSum) {
    static final String HEADER = "engine,events,events_per_sec,process_rss_mib,table_mib,"
        + "restored,restored_per_sec,restore_rss_mib,peak_rss_mib,count_sum";

    String csv() {
      return String.format(Locale.ROOT, "%s,%d,%.0f,%.1f,%.1f,%d,%.0f,%.1f,%.1f,%d", engine,
          events, events / processSeconds, processRssMib, stateMib, restored,
          restored / restoreSeconds, restoreRssMib, peakRssMib, countSum);
    }

    static Result parse(String csv) {
      String[] c = csv.split(",");
      long events = Long.parseLong(c[1]);
      long restored = Long.parseLong(c[5]);
      return new Result(c[0], events, events / Double.parseDouble(c[2]),
          Double.parseDouble(c[3]), Double.parseDouble(c[4]), restored,
          restored / Double.parseDouble(c[6]), Double.parseDouble(c[7]),
          Double.parseDouble(c[8]), Long.parseLong(c[9]));
    }
  }

  public static void main(String[] args) throws Exception {
    Settings s = Settings.parse(args);
    if (List.of(args).contains("--child")) {
      Result r = runEngine(s, s.engines().get(0));
      Files.writeString(s.out().resolve(r.engine() + ".csv"), r.csv() + "\n");
      System.exit(0);
    }
    List<Result> results = run(s);
    System.out.print(report(s, results));
  }

  /** Runs every engine in a child JVM; writes results.csv and report.md into the output folder. */
  static List<Result> run(Settings s) throws IOException, InterruptedException {
    Files.createDirectories(s.out());
    List<Result> results = new ArrayList<>();
    for (String engine : s.engines()) {
      List<String> cmd = new ArrayList<>(List.of(
          Path.of(System.getProperty("java.home"), "bin", "java").toString(), s.heap(),
          "-Dbench.cacheBytes=" + s.cacheBytes(), "-Dbench.memtableBytes=" + s.memtableBytes(),
          "-cp", System.getProperty("java.class.path"), KafkaStoreBenchmark.class.getName()));
      cmd.addAll(List.of(s.childArgs(engine)));
      Path log = s.out().resolve(engine + ".log");
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
          .redirectOutput(log.toFile()).start();
      if (!p.waitFor(2, TimeUnit.HOURS) || p.exitValue() != 0) {
        p.destroyForcibly();
        throw new IOException(engine + " failed; see " + log);
      }
      results.add(Result.parse(Files.readString(s.out().resolve(engine + ".csv")).trim()));
    }
    StringBuilder csv = new StringBuilder(Result.HEADER).append('\n');
    results.forEach(r -> csv.append(r.csv()).append('\n'));
    Files.writeString(s.out().resolve("results.csv"), csv);
    Files.writeString(s.out().resolve("report.md"), report(s, results));
    return results;
  }

  static String report(Settings s, List<Result> results) {
    StringBuilder b = new StringBuilder(String.format(Locale.ROOT,
        "# Kafka Streams keyed count: Strata store against the default RocksDB store%n%n"
            + "%d events, %d keys, block cache %.1f MiB and memtable %.0f MiB in each store,"
            + " Kafka's record cache off, %s per JVM, the changelog restored in %s order,"
            + " Strata's tables %s (Kafka's RocksDB store: uncompressed).%n%n"
            + "| store | events/s | RSS after processing, MiB | tables on disk, MiB |"
            + " restored records/s | RSS after restore, MiB | peak RSS, MiB |%n"
            + "|---|---|---|---|---|---|---|%n",
        s.events(), s.keys(), s.cacheBytes() / 1048576.0, s.memtableBytes() / 1048576.0,
        s.heap(), s.shuffledRestore() ? "shuffled" : "key", s.compression()));
    for (Result r : results) {
      b.append(String.format(Locale.ROOT, "| %s | %.0f | %.0f | %.1f | %.0f | %.0f | %.0f |%n",
          r.engine(), r.events() / r.processSeconds(), r.processRssMib(), r.stateMib(),
          r.restored() / r.restoreSeconds(), r.restoreRssMib(), r.peakRssMib()));
    }
    return b.toString();
  }

  private static Properties config(Settings s, Path stateDir) {
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, "strata-bench");
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9");
    p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
    p.put(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, EqualRocksDbConfig.class);
    return p;
  }

  private static KeyValueBytesStoreSupplier supplier(Settings s, String engine, String name) {
    return switch (engine) {
      case "strata" -> StrataStores.keyValueStore(name, DbOptions.builder()
          .blockCacheBytes(s.cacheBytes()).memtableBytes(s.memtableBytes())
          .compression(s.compression()).build());
      case "rocksdb" -> Stores.persistentKeyValueStore(name);
      default -> throw new IllegalArgumentException("unknown engine " + engine);
    };
  }

  /**
   * {@code key-%08d} of {@code i}, laid out by hand: {@code String.format} costs more than a
   * store's write, and the loops it runs in time the stores.
   */
  private static byte[] key(int i) {
    byte[] k = {'k', 'e', 'y', '-', '0', '0', '0', '0', '0', '0', '0', '0'};
    for (int p = k.length - 1, n = i; n > 0; p--, n /= 10) {
      k[p] = (byte) ('0' + n % 10);
    }
    return k;
  }

  /** Processes, then restores, with {@code engine}'s store; this process's figures. */
  static Result runEngine(Settings s, String engine) throws IOException {
    Path dir = s.out().resolve("state-" + engine);
    StreamsBuilder builder = new StreamsBuilder();
    builder.stream("events", Consumed.with(Serdes.Bytes(), Serdes.ByteArray()))
        .groupByKey()
        .count(Materialized.<Bytes, Long>as(supplier(s, engine, "counts"))
            .withKeySerde(Serdes.Bytes()).withValueSerde(Serdes.Long())
            // The test driver keeps every record produced, changelog included: at 10M events
            // that alone fills the heap. The restore phase measures the changelog's side.
            .withLoggingDisabled());
    Random rnd = new Random(20261128L);
    byte[] value = new byte[8];
    double processSeconds;
    double stateMib;
    long sum = 0;
    try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), config(s, dir))) {
      TestInputTopic<byte[], byte[]> in = driver.createInputTopic("events",
          new ByteArraySerializer(), new ByteArraySerializer());
      long start = System.nanoTime();
      List<KeyValue<byte[], byte[]>> batch = new ArrayList<>(10_000);
      for (long e = 0; e < s.events(); e++) {
        batch.add(KeyValue.pair(key(rnd.nextInt(s.keys())), value));
        if (batch.size() == 10_000 || e == s.events() - 1) {
          in.pipeKeyValueList(batch);
          batch.clear();
        }
      }
      processSeconds = (System.nanoTime() - start) / 1e9;
      // The tables on disk (both engines name them .sst), before the driver deletes the state.
      stateMib = tableBytesUnder(dir) / 1048576.0;
      KeyValueStore<Bytes, ?> counts = driver.getKeyValueStore("counts");
      try (KeyValueIterator<Bytes, ?> it = counts.all()) {
        while (it.hasNext()) {
          Object v = it.next().value;
          sum += v instanceof Long l ? l
              : ((org.apache.kafka.streams.state.ValueAndTimestamp<?>) v).value() instanceof Long l2
                  ? l2 : 0;
        }
      }
    }
    double processRss = Rss.now()[0];

    // Restore: a compacted changelog, one record per key (the count and its timestamp).
    MockProcessorContext<Object, Object> mock = new MockProcessorContext<>(
        config(s, dir.resolve("restore")), new TaskId(0, 0), dir.resolve("restore").toFile());
    CapturingContext context = new CapturingContext(mock.getStateStoreContext());
    KeyValueStore<Bytes, byte[]> store = supplier(s, engine, "restored").get();
    store.init(context, store);
    ProcCpu cpuBefore = ProcCpu.now();
    long start = System.nanoTime();
    List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>(RESTORE_BATCH);
    int[] order = restoreOrder(s);
    for (int i = 0; i < s.keys(); i++) {
      int k = order[i];
      byte[] v = java.nio.ByteBuffer.allocate(16).putLong(k).putLong(k % 97).array();
      records.add(new ConsumerRecord<>("strata-bench-restored-changelog", 0, i, key(k), v));
      if (records.size() == RESTORE_BATCH || i == s.keys() - 1) {
        if (context.callback() instanceof RecordBatchingStateRestoreCallback r) {
          r.restoreBatch(records);
        } else {
          List<KeyValue<byte[], byte[]>> kvs = new ArrayList<>();
          records.forEach(c -> kvs.add(KeyValue.pair(c.key(), c.value())));
          ((BatchingStateRestoreCallback) context.callback()).restoreAll(kvs);
        }
        records.clear();
      }
    }
    double restoreSeconds = (System.nanoTime() - start) / 1e9;
    // Where the restore's CPU went; the logical bytes: each record's key and 16-byte value.
    Files.writeString(s.out().resolve(engine + "-restore-cpu.txt"),
        ProcCpu.now().since(cpuBefore, s.keys(), (long) s.keys() * (key(0).length + 16)));
    double[] rss = Rss.now();
    store.close();
    Files.writeString(s.out().resolve(engine + "-restore-and-close-cpu.txt"),
        ProcCpu.now().since(cpuBefore, s.keys(), (long) s.keys() * (key(0).length + 16)));
    return new Result(engine, s.events(), processSeconds, processRss, stateMib, s.keys(),
        restoreSeconds, rss[0], rss[1], sum);
  }

  /**
   * The keys in the order the changelog holds them: ascending (a changelog written in key order),
   * or with {@code --restore-order shuffled} a seeded permutation (each key's last write at a
   * random place, as a compacted changelog of random updates holds them).
   */
  private static int[] restoreOrder(Settings s) {
    int[] order = new int[s.keys()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    if (s.shuffledRestore()) {
      Random rnd = new Random(20261129L);
      for (int i = order.length - 1; i > 0; i--) {
        int j = rnd.nextInt(i + 1);
        int t = order[i];
        order[i] = order[j];
        order[j] = t;
      }
    }
    return order;
  }

  /**
   * The bytes of the table files under {@code dir}. The store's background compaction may delete
   * a table while the walk passes: a file gone before it is read counts as 0 bytes.
   */
  private static long tableBytesUnder(Path dir) throws IOException {
    long[] bytes = {0};
    Files.walkFileTree(dir, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult visitFile(Path f, BasicFileAttributes attrs) {
        if (f.toString().endsWith(".sst")) {
          bytes[0] += attrs.size();
        }
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFileFailed(Path f, IOException e) throws IOException {
        if (e instanceof NoSuchFileException) {
          return FileVisitResult.CONTINUE;
        }
        throw e;
      }
    });
    return bytes[0];
  }
}
