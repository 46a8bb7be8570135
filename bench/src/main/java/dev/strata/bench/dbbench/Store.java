package dev.strata.bench.dbbench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * One engine under test, open on its database: the operations the benchmarks run, the counters
 * they read, and what it can say about its tree. Each implementation maps its engine's own counters
 * to {@link Counters} and leaves null what its engine cannot report.
 *
 * <p>Thread-safe: reads and writes come from several threads at once, as the engines allow.
 */
interface Store extends AutoCloseable {
  /** Opens {@code engine}'s database of {@code layout} in {@code dir} with {@code config}'s settings. */
  static Store open(EngineKind engine, Path dir, Benchmark.Layout layout, RunConfig config)
      throws IOException {
    return engine.isRocksDb()
        ? new RocksDbStore(dir, engine, layout, config)
        : new StrataStore(dir, config);
  }

  /** Writes {@code key} (a narrow row) through the unsynced log. */
  void put(byte[] key, byte[] value) throws IOException;

  /** Writes cell (row, column) of a wide row through the unsynced log. */
  void putCell(byte[] row, byte[] column, byte[] value) throws IOException;

  /** Point Get of a narrow key; true when found. */
  boolean get(byte[] key) throws IOException;

  /** Point Gets of a batch of narrow keys in one call; returns how many were found. */
  int multiGet(List<byte[]> keys) throws IOException;

  /** Positions at the first cell at or after {@code key} and reads up to {@code cells} cells. */
  int seek(byte[] key, int cells) throws IOException;

  /** Positions at the last cell at or before {@code key} and reads up to {@code cells} cells backward. */
  int seekReverse(byte[] key, int cells) throws IOException;

  /** Reads every cell of the keys starting with {@code prefix}; returns how many there were. */
  int scanPrefix(byte[] prefix) throws IOException;

  /** Reads every column of wide row {@code row}; returns how many there were. */
  int getRow(byte[] row) throws IOException;

  /** Writes the memtable out and waits until it is durable in a table. */
  void flush() throws IOException;

  /** Whether a flush or compaction is running or due: false once the tree has quiesced. */
  boolean compactionPending() throws IOException;

  /** Tables and bytes at each level now, level 0 first. */
  Levels levels() throws IOException;

  /** The engine's cumulative counters now. */
  Counters counters() throws IOException;

  /**
   * Called on every reader thread before it runs, for engines that count per thread (RocksDB's
   * PerfContext); a no-op otherwise.
   */
  default void beginReaderThread() {}

  /**
   * Bytes the calling thread read from table files since {@link #beginReaderThread}, or -1 when
   * the engine counts them globally in {@link Counters#bytesRead()} instead.
   */
  default long readerThreadBytes() {
    return -1;
  }

  /** Writes the engine's complete options, as the engine prints them, into {@code file}. */
  void writeOptions(Path file) throws IOException;

  @Override
  void close() throws IOException;

  /**
   * Cumulative counters of an engine; null where it has none.
   *
   * @param bytesRead bytes read from table files by Gets and scans
   * @param filterBlocksRead filter blocks (partitions, chunks) read from disk
   * @param indexBlocksRead index blocks read from disk
   * @param dataBlocksRead data blocks read from disk
   * @param filterHits filter blocks served by the block cache
   * @param indexHits index blocks served by the block cache
   * @param dataHits data blocks served by the block cache
   * @param filterUseful table probes a filter answered "absent"
   * @param newTableMetadataRead filter and index blocks read from disk of tables the engine wrote
   *     since open (null where the engine does not tell them apart)
   * @param stallMicros time writers spent stalled by the engine, microseconds
   *
   * <p>Immutable.
   */
  record Counters(Long bytesRead, Long filterBlocksRead, Long indexBlocksRead, Long dataBlocksRead,
      Long filterHits, Long indexHits, Long dataHits, Long filterUseful, Long newTableMetadataRead,
      Long stallMicros) {

    /** This minus {@code before}, field by field; null stays null. */
    Counters minus(Counters before) {
      return new Counters(d(bytesRead, before.bytesRead), d(filterBlocksRead, before.filterBlocksRead),
          d(indexBlocksRead, before.indexBlocksRead), d(dataBlocksRead, before.dataBlocksRead),
          d(filterHits, before.filterHits), d(indexHits, before.indexHits),
          d(dataHits, before.dataHits), d(filterUseful, before.filterUseful),
          d(newTableMetadataRead, before.newTableMetadataRead), d(stallMicros, before.stallMicros));
    }

    private static Long d(Long a, Long b) {
      return a == null || b == null ? null : a - b;
    }
  }

  /**
   * The tables and bytes at each level of a tree, and what its filters and index take on disk (what
   * the block cache must hold for a Get to read no metadata).
   *
   * @param tables tables per level, level 0 first
   * @param bytes their files' bytes per level
   * @param filterBytes their filters' bytes per level (Strata: chunks, filter index and row-tombstone
   *     filter; RocksDB: the table property {@code filter_size})
   * @param indexBytes their indexes' bytes per level (RocksDB: {@code index_size}, top level
   *     included); null where the engine does not give them per level
   * @param indexBytesTotal the indexes' bytes over the whole tree
   *
   * <p>Immutable.
   */
  record Levels(List<Integer> tables, List<Long> bytes, List<Long> filterBytes,
      List<Long> indexBytes, long indexBytesTotal) {
    /** Tables per level, space separated, up to the deepest non-empty level. */
    String tablesCell() {
      return join(tables.stream().map(Long::valueOf).toList(), 1, 0);
    }

    /** MiB per level, space separated, up to the deepest non-empty level. */
    String mibCell() {
      return join(bytes, 1 << 20, 1);
    }

    /** Filter KiB per level, space separated, up to the deepest non-empty level. */
    String filterKibCell() {
      return join(filterBytes, 1 << 10, 1);
    }

    /** Index KiB per level where known, else the tree's total. */
    String indexKibCell() {
      return indexBytes != null ? join(indexBytes, 1 << 10, 1) : scaled(indexBytesTotal, 1 << 10, 1);
    }

    /** {@code bytes} in {@code unit}s rounded to {@code decimals} places. */
    private static String scaled(long bytes, long unit, int decimals) {
      double scale = Math.pow(10, decimals);
      return dev.strata.bench.common.Cells.format(Math.round(bytes * scale / unit) / scale);
    }

    private String join(List<Long> values, long unit, int decimals) {
      int last = 0;
      for (int i = 0; i < tables.size(); i++) {
        if (tables.get(i) > 0) {
          last = i;
        }
      }
      StringBuilder s = new StringBuilder();
      for (int i = 0; i <= last && i < values.size(); i++) {
        if (i > 0) {
          s.append(' ');
        }
        s.append(unit == 1 ? Long.toString(values.get(i)) : scaled(values.get(i), unit, decimals));
      }
      return s.toString();
    }
  }
}
