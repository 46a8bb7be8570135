package dev.strata.bench.dbbench;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * The settings that decided what the fills under a {@code --db-dir} wrote, kept beside the
 * databases in {@link #FILE}. Why: a run with {@code --use-existing-db} generates its keys from its
 * own settings, so one that leaves out the {@code --profile large} its databases were filled with
 * reads the first 2.5M of 20M keys, whose blocks fit in the cache, and reports a figure 7x too
 * good without a word (db_bench has the same trap with {@code --num}). A run that fills removes
 * the record before its first phase and writes it once its fills have succeeded ({@link
 * DbBenchRun}); a run on existing databases compares its settings with it and refuses a
 * difference, naming each.
 *
 * <p>Only what the data depends on is recorded: the key space, the values, the filters written.
 * The cache, the durations, the threads and the tree's options may differ from run to run.
 */
final class FillRecord {
  /** File name in the databases' folder. */
  static final String FILE = "dbbench-fill.properties";

  private FillRecord() {}

  /** Records {@code config}'s data settings in its database folder, replacing any record there. */
  static void write(RunConfig config) throws IOException {
    Properties p = new Properties();
    p.putAll(settings(config));
    Path file = config.dbDir().resolve(FILE);
    Path tmp = config.dbDir().resolve(FILE + ".tmp");
    try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
      p.store(w, "settings of the dbbench fills that wrote the databases in this folder");
    }
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /** Removes the record from {@code config}'s database folder, if there is one. */
  static void delete(RunConfig config) throws IOException {
    Files.deleteIfExists(config.dbDir().resolve(FILE));
  }

  /**
   * The differences between {@code config}'s data settings and those recorded in its database
   * folder, one line each ({@code "num: filled with 20000000, this run 2500000"}); empty when they
   * agree. Null when the folder holds no record (databases filled before records were kept, or by
   * something else): nothing to compare with.
   */
  static List<String> differences(RunConfig config) throws IOException {
    Properties recorded = new Properties();
    Path file = config.dbDir().resolve(FILE);
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      recorded.load(r);
    } catch (NoSuchFileException e) {
      return null;
    } catch (IllegalArgumentException e) {
      throw new IOException("bad fill record " + file + ": " + e.getMessage(), e);
    }
    List<String> differences = new ArrayList<>();
    for (Map.Entry<String, String> want : settings(config).entrySet()) {
      String was = recorded.getProperty(want.getKey());
      if (!want.getValue().equals(was)) {
        differences.add(want.getKey() + ": filled with " + (was == null ? "(not recorded)" : was)
            + ", this run " + want.getValue());
      }
    }
    return differences;
  }

  /** The data settings, named as in {@code run.properties}, in a stable order for messages. */
  private static Map<String, String> settings(RunConfig c) {
    Map<String, String> s = new LinkedHashMap<>();
    s.put("num", Long.toString(c.num()));
    s.put("seed", Long.toString(c.seed()));
    s.put("value_bytes", Integer.toString(c.valueBytes()));
    s.put("compression_ratio", Double.toString(c.compressionRatio()));
    s.put("columns", Integer.toString(c.columns()));
    s.put("bits_per_key", Double.toString(c.bitsPerKey()));
    s.put("bloom_type", c.bloomType().name());
    return s;
  }
}
