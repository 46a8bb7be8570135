package dev.strata.bench.dbbench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * {@code dbbench --heaps}: the same run once per heap setting of the children, each into a folder
 * of its own under {@code --out} ({@code heap-1}, {@code heap-2}, ...: its report, results, logs
 * and, unless {@code --db-dir} names a parent, its databases), and then {@code heaps.md} and {@code
 * heaps.csv}, every engine's throughput, tails, collections and memory side by side per heap. An
 * engine's worst moments depend on the heap its application gives it (a young collection copies
 * what the young generation holds, the heap's size sets the collector's regions), so the tail
 * figures hold for any heap only when they hold for several.
 *
 * <p>Immutable.
 */
final class HeapRuns {
  /** The columns of the summary, after the heap. */
  private static final List<Column> SUMMARY =
      List.of(Column.ENGINE, Column.BENCHMARK, Column.THREADS, Column.CACHE_STATE,
          Column.OPS_PER_SEC, Column.RATIO_TO_ROCKSDB_LRU, Column.P99_US, Column.MAX_PUT_MS,
          Column.PUTS_OVER_10MS, Column.MS_IN_PUTS_OVER_10MS, Column.PUTS_OVER_50MS, Column.MAX_US,
          Column.OTHERS_CPU_PCT, Column.GC_COUNT,
          Column.GC_MS, Column.GC_MAX_MS, Column.SECONDS, Column.PEAK_RSS_MIB);

  private final List<String> heaps;

  private HeapRuns(List<String> heaps) {
    this.heaps = List.copyOf(heaps);
  }

  /**
   * The heap settings of {@code spec}: semicolon-separated, each a space-separated list of JVM
   * flags ({@code "-Xmx1g;-Xmx8g -Xms1g"}).
   *
   * @throws IllegalArgumentException when a setting is empty
   */
  static HeapRuns parse(String spec) {
    List<String> heaps = new ArrayList<>();
    for (String s : spec.split(";", -1)) {
      String heap = s.trim().replaceAll("\\s+", " ");
      if (heap.isEmpty()) {
        throw new IllegalArgumentException("an empty heap setting in '" + spec + "'");
      }
      heaps.add(heap);
    }
    return new HeapRuns(heaps);
  }

  /** How many settings. */
  int size() {
    return heaps.size();
  }

  /** Setting {@code i} as given. */
  String heap(int i) {
    return heaps.get(i);
  }

  /** The output folder of setting {@code i} under {@code out}. */
  static Path folder(Path out, int i) {
    return out.resolve("heap-" + (i + 1));
  }

  /**
   * The children's flags for setting {@code i}: {@code base} without its heap sizes ({@code -Xmx},
   * {@code -Xms}), then the setting's flags, so the setting decides the heap.
   */
  List<String> flags(List<String> base, int i) {
    List<String> flags = new ArrayList<>();
    for (String f : base) {
      if (!f.startsWith("-Xmx") && !f.startsWith("-Xms")) {
        flags.add(f);
      }
    }
    flags.addAll(Arrays.asList(heaps.get(i).split(" ")));
    return flags;
  }

  /** Writes {@code heaps.md} and {@code heaps.csv} into {@code out} from each setting's rows. */
  void writeSummary(Path out, List<List<Result>> rowsPerHeap) throws IOException {
    StringBuilder md = new StringBuilder("# dbbench under several heaps\n\n");
    md.append("Each heap setting ran the whole plan in its own folder (`heap-N/report.md` has its"
        + " settings, parity notes and every column); the rows below are each phase's"
        + " throughput, tails, collections and memory. Ratios compare engines under the same"
        + " heap.\n\n");
    StringBuilder csv = new StringBuilder("heap");
    md.append("| heap |");
    for (Column c : SUMMARY) {
      md.append(' ').append(c.label()).append(" |");
      csv.append(',').append(c.label());
    }
    md.append("\n|---|").append("---|".repeat(SUMMARY.size())).append('\n');
    csv.append('\n');
    for (int i = 0; i < heaps.size(); i++) {
      String heap = heaps.get(i);
      for (Result r : rowsPerHeap.get(i)) {
        md.append("| ").append(heap).append(" (heap-").append(i + 1).append(") |");
        csv.append(heap);
        for (Column c : SUMMARY) {
          md.append(' ').append(r.get(c)).append(" |");
          csv.append(',').append(r.get(c));
        }
        md.append('\n');
        csv.append('\n');
      }
    }
    Files.writeString(out.resolve("heaps.md"), md, StandardCharsets.UTF_8);
    Files.writeString(out.resolve("heaps.csv"), csv, StandardCharsets.UTF_8);
  }

  /** A line for the terminal naming setting {@code i}. */
  String banner(int i) {
    return String.format(Locale.ROOT, "== heap %d/%d: %s ==", i + 1, heaps.size(), heaps.get(i));
  }
}
