package dev.strata.sstable.testing;

import dev.strata.sstable.TableMetadata;
import dev.strata.sstable.TableOptions;
import dev.strata.sstable.TableWriter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes test tables.
 *
 * <p>Thread-safe (stateless).
 */
public final class Tables {
  private Tables() {}

  /** Writes {@code entries} (sorted) to a new table at {@code file}. */
  public static TableMetadata write(Path file, TableOptions options, List<Entry> entries) throws IOException {
    try (TableWriter w = TableWriter.create(file, options)) {
      for (Entry e : entries) {
        w.add(e.key(), e.value());
      }
      return w.finish();
    }
  }
}
