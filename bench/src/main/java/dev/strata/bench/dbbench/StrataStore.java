package dev.strata.bench.dbbench;

import dev.strata.engine.CellCursor;
import dev.strata.engine.CellScanner;
import dev.strata.engine.Db;
import dev.strata.engine.DbOptions;
import dev.strata.engine.DbStats;
import dev.strata.engine.LevelStats;
import dev.strata.engine.WriteStats;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Consumer;

/**
 * Strata under test: a {@link Db} with automatic leveled compaction in the run's {@link Tree}.
 * Counters come from {@link DbStats}: {@code bytesReadFromDisk}, {@code filterBlocksRead} and
 * {@code filterBlockCacheHits}, {@code indexBlocksRead} and {@code indexBlockCacheHits}, {@code
 * dataBlocksRead} and {@code dataBlockCacheHits}, {@code tablesSkippedByBloom}; write stalls from
 * {@link Db#writeStats()} (slowdown plus stop time).
 *
 * <p>Thread-safe, as {@link Db}.
 */
final class StrataStore implements Store {
  /** The smallest column: a seek to (key, no column) lands on the key's first cell. */
  private static final byte[] NO_COLUMN = new byte[0];

  private final Db db;

  StrataStore(Path dir, RunConfig config) throws IOException {
    this.db = Db.open(dir, options(config));
  }

  /** Strata's options for a run: the tree, the cache and the filter of the run, the rest default. */
  static DbOptions options(RunConfig c) {
    return Parity.strataOptions(c.tree(), c.cacheBytes(), c.bitsPerKey(), c.bloomType());
  }

  @Override
  public void put(byte[] key, byte[] value) throws IOException {
    db.put(key, value);
  }

  @Override
  public void putCell(byte[] row, byte[] column, byte[] value) throws IOException {
    db.put(row, column, value);
  }

  @Override
  public boolean get(byte[] key) throws IOException {
    return db.get(key) != null;
  }

  @Override
  public int multiGet(List<byte[]> keys) throws IOException {
    int found = 0;
    for (byte[] v : db.multiGet(keys)) {
      found += v == null ? 0 : 1;
    }
    return found;
  }

  @Override
  public int seek(byte[] key, int cells) throws IOException {
    try (CellCursor c = db.cursor()) {
      c.seek(key, NO_COLUMN);
      return readCells(c, cells, CellCursor::next);
    }
  }

  @Override
  public int seekReverse(byte[] key, int cells) throws IOException {
    try (CellCursor c = db.cursor()) {
      c.seekForPrev(key, NO_COLUMN);
      return readCells(c, cells, CellCursor::prev);
    }
  }

  /** Reads up to {@code cells} cells from a positioned cursor, stepping with {@code step}. */
  private static int readCells(CellCursor c, int cells, Consumer<CellCursor> step) {
    int n = 0;
    for (; n < cells && c.isValid(); step.accept(c)) {
      c.row();
      c.column();
      c.value();
      n++;
    }
    return n;
  }

  @Override
  public int scanPrefix(byte[] prefix) throws IOException {
    int n = 0;
    try (CellScanner s = db.scanPrefix(prefix)) {
      while (s.hasNext()) {
        s.next();
        n++;
      }
    }
    return n;
  }

  @Override
  public int getRow(byte[] row) throws IOException {
    return db.getRow(row).size();
  }

  @Override
  public void flush() throws IOException {
    db.flush();
  }

  @Override
  public boolean compactionPending() {
    return db.backgroundWorkPending();
  }

  @Override
  public Levels levels() {
    // From one version: tablesPerLevel() and levelStats() called apart may see a compaction between.
    int levels = db.tablesPerLevel().size();
    List<Integer> tables = new ArrayList<>(Collections.nCopies(levels, 0));
    List<Long> bytes = new ArrayList<>(Collections.nCopies(levels, 0L));
    List<Long> filterBytes = new ArrayList<>(Collections.nCopies(levels, 0L));
    for (LevelStats l : db.levelStats()) {
      tables.set(l.level(), l.tables());
      bytes.set(l.level(), l.bytes());
      filterBytes.set(l.level(), l.filterBytes());
    }
    return new Levels(tables, bytes, filterBytes, null,
        db.stats().metadata().indexBytesOnDisk());
  }

  @Override
  public Counters counters() {
    DbStats s = db.stats();
    WriteStats w = db.writeStats();
    return new Counters(s.bytesReadFromDisk(), s.filterBlocksRead(), s.metadata().indexBlocksRead(),
        s.dataBlocksRead(), s.filterBlockCacheHits(), s.metadata().indexBlockCacheHits(),
        s.dataBlockCacheHits(), s.tablesSkippedByBloom(),
        s.metadata().blocksReadOfTablesWrittenHere(), (w.slowdownNanos() + w.stopNanos()) / 1000);
  }

  @Override
  public void writeOptions(Path file) throws IOException {
    Files.writeString(file, db.options() + System.lineSeparator(), StandardCharsets.UTF_8);
  }

  @Override
  public void close() throws IOException {
    db.close();
  }
}
