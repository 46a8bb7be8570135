package dev.strata.bench.readamp;

import dev.strata.bench.common.Cells;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;

/**
 * Writes result rows as CSV: the benchmark's fixed columns, in their order and spelled exactly so, then
 * the extra columns. A null value is an empty cell: the engine could not report it.
 *
 * <p>Immutable (static methods only).
 */
final class ResultsCsv {
  /** The fixed columns, in order. */
  static final List<String> REQUIRED_COLUMNS = List.of(
      "engine", "bloom", "bits_per_key", "tables", "query", "gets", "ops_per_sec", "p50_us",
      "p99_us", "tables_consulted_per_get", "tables_skipped_by_filter_per_get",
      "false_positives_per_get", "filter_blocks_read_per_get", "data_blocks_read_per_get",
      "bytes_read_per_get", "fpr_measured", "fpr_model", "filter_bits_per_key");

  private record Column(String name, Function<ResultRow, Object> value) {}

  private static final List<Column> COLUMNS = List.of(
      new Column("engine", r -> r.setup().engine().label()),
      new Column("bloom", r -> r.setup().bloom()),
      new Column("bits_per_key", ResultRow::bitsPerKey),
      new Column("tables", ResultRow::tables),
      new Column("query", r -> r.query().label()),
      new Column("gets", ResultRow::gets),
      new Column("ops_per_sec", ResultRow::opsPerSec),
      new Column("p50_us", ResultRow::p50Us),
      new Column("p99_us", ResultRow::p99Us),
      new Column("tables_consulted_per_get", r -> r.metrics().tablesConsulted()),
      new Column("tables_skipped_by_filter_per_get", r -> r.metrics().tablesSkipped()),
      new Column("false_positives_per_get", r -> r.metrics().falsePositives()),
      new Column("filter_blocks_read_per_get", r -> r.metrics().filterBlocksRead()),
      new Column("data_blocks_read_per_get", r -> r.metrics().dataBlocksRead()),
      new Column("bytes_read_per_get", r -> r.metrics().bytesRead()),
      new Column("fpr_measured", r -> r.metrics().fprMeasured()),
      new Column("fpr_model", ResultRow::fprModel),
      new Column("filter_bits_per_key", ResultRow::filterBitsPerKey),
      new Column("shape", r -> r.shape().label()),
      new Column("phase", ResultRow::phase),
      new Column("rows", ResultRow::rows),
      new Column("columns_per_row", ResultRow::columnsPerRow),
      new Column("p999_us", ResultRow::p999Us),
      new Column("filter_blocks_accessed_per_get", r -> r.metrics().filterBlocksAccessed()),
      new Column("data_blocks_accessed_per_get", r -> r.metrics().dataBlocksAccessed()),
      new Column("load_keys_per_sec", ResultRow::loadKeysPerSec),
      new Column("ratio_to_rocksdb", ResultRow::ratioToRocksDb));

  private ResultsCsv() {}

  /** Every column name, required ones first. */
  static List<String> columnNames() {
    return COLUMNS.stream().map(Column::name).toList();
  }

  /** Writes {@code rows} to {@code file} with a header line. */
  static void write(Path file, List<ResultRow> rows) throws IOException {
    try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      w.write(String.join(",", columnNames()));
      w.write('\n');
      for (ResultRow r : rows) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < COLUMNS.size(); i++) {
          if (i > 0) {
            line.append(',');
          }
          line.append(Cells.format(COLUMNS.get(i).value().apply(r)));
        }
        w.write(line.append('\n').toString());
      }
    }
  }
}
