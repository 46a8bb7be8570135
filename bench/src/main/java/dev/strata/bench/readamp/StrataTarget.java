package dev.strata.bench.readamp;

import dev.strata.engine.BloomType;
import dev.strata.engine.Compression;
import dev.strata.engine.Db;
import dev.strata.engine.DbOptions;
import dev.strata.engine.DbStats;
import dev.strata.engine.fs.FileNames;
import dev.strata.engine.manifest.FileMetadata;
import dev.strata.engine.manifest.Manifest;
import dev.strata.engine.manifest.ManifestReader;
import dev.strata.sstable.TableProperties;
import dev.strata.sstable.TableReader;
import dev.strata.sstable.cache.ClockBlockCache;
import dev.strata.sstable.filter.FilterType;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Strata under test: a {@link Db} with auto compaction off, so each flush leaves one level-0 table.
 * Counters come from {@link DbStats}: {@code tablesConsulted}, {@code tablesSkippedByBloom}, {@code
 * bloomFalsePositives}, {@code filterBlocksRead}/{@code filterBlockCacheHits}, {@code
 * dataBlocksRead}/{@code dataBlockCacheHits} and {@code bytesReadFromDisk}. {@code getRow} counts
 * block reads but not tables, so its table columns stay empty.
 *
 * <p>Not thread-safe.
 */
final class StrataTarget implements Target {
  private final Path dir;
  private final DbOptions options;
  private Db db;

  StrataTarget(Path dir, DbOptions options) throws IOException {
    this.dir = dir;
    this.options = options;
    this.db = Db.open(dir, options);
  }

  /** The options a setup runs with: everything but the bloom type is shared by the setups. */
  static DbOptions options(Setup setup, Settings s) {
    return DbOptions.builder()
        .bloomType(switch (setup) {
          case STRATA_ROW -> BloomType.ROW;
          case STRATA_ROWCOL -> BloomType.ROWCOL;
          default -> BloomType.NONE;
        })
        .bloomBitsPerKey(s.bitsPerKey())
        .bloomChunkBytes(s.filterChunkBytes())
        .blockSizeBytes(Settings.BLOCK_SIZE_BYTES)
        .compression(Compression.LZ4)
        .blockCacheBytes(s.cacheBytes())
        .blockCacheShards(s.strataCacheShards())
        .memtableBytes(Settings.MEMTABLE_BYTES)
        .syncWrites(false)
        .autoCompaction(false)
        .build();
  }

  @Override
  public void put(byte[] row, byte[] column, byte[] value) throws IOException {
    db.put(row, column, value);
  }

  @Override
  public void flush() throws IOException {
    db.flush();
  }

  @Override
  public void compact() throws IOException {
    db.compact();
  }

  @Override
  public void reopen() throws IOException {
    db.close();
    db = Db.open(dir, options);
  }

  @Override
  public byte[] get(byte[] row, byte[] column) throws IOException {
    return db.get(row, column);
  }

  @Override
  public int getRow(byte[] row) throws IOException {
    return db.getRow(row).size();
  }

  @Override
  public Counters counters() {
    DbStats s = db.stats();
    return new Counters(
        s.tablesConsulted(),
        s.tablesSkippedByBloom(),
        s.bloomFalsePositives(),
        0,
        0,
        s.filterBlocksRead(),
        s.filterBlockCacheHits(),
        s.dataBlocksRead(),
        s.dataBlockCacheHits(),
        s.bytesReadFromDisk(),
        0,
        0,
        0);
  }

  @Override
  public PassMetrics metrics(QueryKind kind, Counters before, Counters after, long gets) {
    boolean filter = options.filters().bloomType() != BloomType.NONE;
    boolean tables = kind.isPointGet(); // getRow does not count tables
    long skipped = after.skipped() - before.skipped();
    long falsePositives = after.falsePositives() - before.falsePositives();
    return PassMetrics.of(
        tables ? PassMetrics.perGet(after.consulted() - before.consulted(), gets) : null,
        tables ? PassMetrics.perGet(skipped, gets) : null,
        tables && filter ? PassMetrics.perGet(falsePositives, gets) : null,
        tables && filter ? PassMetrics.fpr(falsePositives, skipped) : null,
        before,
        after,
        gets);
  }

  @Override
  public int tableCount() {
    return (int) db.stats().tableCount();
  }

  @Override
  public long filterBytesOnDisk() {
    return db.stats().filterBytesOnDisk();
  }

  @Override
  public Double fprModel() throws IOException {
    if (options.filters().bloomType() == BloomType.NONE) {
      return null;
    }
    Manifest m = ManifestReader.readIfExists(dir).orElse(Manifest.empty());
    List<FileMetadata> files = m.files();
    double weighted = 0;
    long keys = 0;
    ClockBlockCache cache = new ClockBlockCache(0);
    for (FileMetadata f : files) {
      try (TableReader r = TableReader.open(FileNames.table(dir, f.fileNumber()), f.fileNumber(), cache)) {
        TableProperties p = r.properties();
        if (p.filterType() == FilterType.NONE || p.filterChunkCount() == 0) {
          continue;
        }
        long perChunk = Math.max(1, p.filterKeyCount() / p.filterChunkCount());
        weighted += FprModels.strata(perChunk, p.bitsPerKey()) * p.filterKeyCount();
        keys += p.filterKeyCount();
      }
    }
    return keys == 0 ? null : weighted / keys;
  }

  @Override
  public void close() throws IOException {
    db.close();
  }
}
