package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every range the builder accepts is one the database works with: each bound of each numeric
 * option, through a real open, writes, a flush, reads, and a reopen. A bound the builder accepts
 * but the table layer does not would fail every open, long after the options were built.
 */
final class DbOptionsBoundsTest {
  @TempDir Path dir;

  static Stream<Arguments> bounds() {
    return Stream.of(
        bound("bloomBitsPerKey min", b -> b.bloomBitsPerKey(FilterOptions.MIN_BLOOM_BITS_PER_KEY)),
        bound("bloomBitsPerKey max", b -> b.bloomBitsPerKey(FilterOptions.MAX_BLOOM_BITS_PER_KEY)),
        bound("bloomChunkBytes min", b -> b.bloomChunkBytes(FilterOptions.MIN_BLOOM_CHUNK_BYTES)),
        bound("bloomChunkBytes max", b -> b.bloomChunkBytes(FilterOptions.MAX_BLOOM_CHUNK_BYTES)),
        bound(
            "bloomChunkBytes max, bits max",
            b ->
                b.bloomChunkBytes(FilterOptions.MAX_BLOOM_CHUNK_BYTES)
                    .bloomBitsPerKey(FilterOptions.MAX_BLOOM_BITS_PER_KEY)),
        bound("blockSizeBytes min", b -> b.blockSizeBytes(DataBlockOptions.MIN_BLOCK_SIZE_BYTES)),
        bound("blockSizeBytes max", b -> b.blockSizeBytes(DataBlockOptions.MAX_BLOCK_SIZE_BYTES)),
        bound("blockCacheBytes min", b -> b.blockCacheBytes(0)),
        bound("blockCacheBytes max", b -> b.blockCacheBytes(Long.MAX_VALUE)),
        bound("blockCacheShards min", b -> b.blockCacheShards(1)),
        bound(
            "blockCacheShards max",
            b -> b.blockCacheShards(BlockCacheOptions.MAX_BLOCK_CACHE_SHARDS)),
        bound(
            "blockCacheShards max, cache max",
            b ->
                b.blockCacheShards(BlockCacheOptions.MAX_BLOCK_CACHE_SHARDS)
                    .blockCacheBytes(Long.MAX_VALUE)),
        bound("memtableBytes min", b -> b.memtableBytes(1)),
        bound("memtableBytes max", b -> b.memtableBytes(Long.MAX_VALUE)),
        bound("level0CompactionTrigger min", b -> b.level0CompactionTrigger(1)),
        bound(
            "level0CompactionTrigger max",
            b -> b.level0CompactionTrigger(CompactionOptions.MAX_LEVEL0_COMPACTION_TRIGGER)),
        bound(
            "levelSizeMultiplier min",
            b -> b.levelSizeMultiplier(CompactionOptions.MIN_LEVEL_SIZE_MULTIPLIER)),
        bound(
            "levelSizeMultiplier max",
            b -> b.levelSizeMultiplier(CompactionOptions.MAX_LEVEL_SIZE_MULTIPLIER)),
        bound("targetFileSizeBytes min", b -> b.targetFileSizeBytes(1)),
        bound("targetFileSizeBytes max", b -> b.targetFileSizeBytes(Long.MAX_VALUE)),
        bound("maxBytesForLevelBase min", b -> b.maxBytesForLevelBase(1)),
        bound("maxBytesForLevelBase max", b -> b.maxBytesForLevelBase(Long.MAX_VALUE)),
        bound("level0SlowdownTrigger min", b -> b.level0SlowdownTrigger(1)),
        bound(
            "level0SlowdownTrigger max",
            b -> b.level0SlowdownTrigger(CompactionOptions.MAX_LEVEL0_COMPACTION_TRIGGER)),
        bound("level0StopTrigger min", b -> b.level0StopTrigger(1)),
        bound(
            "level0StopTrigger max",
            b -> b.level0StopTrigger(CompactionOptions.MAX_LEVEL0_COMPACTION_TRIGGER)),
        bound("softPendingCompactionBytesLimit min", b -> b.softPendingCompactionBytesLimit(0)),
        bound(
            "softPendingCompactionBytesLimit max",
            b -> b.softPendingCompactionBytesLimit(Long.MAX_VALUE)),
        bound("hardPendingCompactionBytesLimit min", b -> b.hardPendingCompactionBytesLimit(0)),
        bound(
            "hardPendingCompactionBytesLimit max",
            b -> b.hardPendingCompactionBytesLimit(Long.MAX_VALUE)),
        bound("delayedWriteRate min", b -> b.delayedWriteRate(1)),
        bound("delayedWriteRate max", b -> b.delayedWriteRate(Long.MAX_VALUE)),
        bound("maxOpenFiles unlimited", b -> b.maxOpenFiles(-1)),
        bound("maxOpenFiles min", b -> b.maxOpenFiles(FileOptions.MIN_MAX_OPEN_FILES)),
        bound("maxOpenFiles max", b -> b.maxOpenFiles(Integer.MAX_VALUE)),
        bound("maxSubcompactions min", b -> b.maxSubcompactions(1)),
        bound(
            "maxSubcompactions max",
            b -> b.maxSubcompactions(CompactionOptions.MAX_SUBCOMPACTIONS)),
        bound(
            "readTriggeredCompactionBytesPerRead off",
            b -> b.readTriggeredCompactionBytesPerRead(0)),
        bound(
            "readTriggeredCompactionBytesPerRead min",
            b -> b.readTriggeredCompactionBytesPerRead(1)),
        bound(
            "readTriggeredCompactionBytesPerRead max",
            b -> b.readTriggeredCompactionBytesPerRead(Long.MAX_VALUE)),
        bound(
            "prefixBloomLength max",
            b -> b.prefixBloomLength(FilterOptions.MAX_PREFIX_BLOOM_LENGTH)),
        bound("blockCacheOffHeapMinBytes min", b -> b.blockCacheOffHeapMinBytes(0)),
        bound("compactionReadaheadBytes min", b -> b.compactionReadaheadBytes(0)),
        bound(
            "compactionReadaheadBytes max",
            b -> b.compactionReadaheadBytes(FileOptions.MAX_COMPACTION_READAHEAD_BYTES)),
        bound("multiGetThreads max", b -> b.multiGetThreads(ReadOptions.MAX_MULTI_GET_THREADS)),
        bound(
            "walRecovery absolute",
            b -> b.walRecovery(WalRecoveryMode.ABSOLUTE_CONSISTENCY)),
        bound("every minimum", DbOptionsBoundsTest::allMinimums));
  }

  private static DbOptions.Builder allMinimums(DbOptions.Builder b) {
    return b.bloomBitsPerKey(FilterOptions.MIN_BLOOM_BITS_PER_KEY)
        .bloomChunkBytes(FilterOptions.MIN_BLOOM_CHUNK_BYTES)
        .blockSizeBytes(DataBlockOptions.MIN_BLOCK_SIZE_BYTES)
        .blockCacheBytes(0)
        .blockCacheShards(1)
        .memtableBytes(1)
        .level0CompactionTrigger(1)
        .levelSizeMultiplier(CompactionOptions.MIN_LEVEL_SIZE_MULTIPLIER)
        .targetFileSizeBytes(1)
        .maxBytesForLevelBase(1);
  }

  private static Arguments bound(String name, UnaryOperator<DbOptions.Builder> setter) {
    return Arguments.of(name, setter);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("bounds")
  void optionAtItsBound_opensWritesFlushesReadsAndReopens(
      String name, UnaryOperator<DbOptions.Builder> setter) throws Exception {
    DbOptions options = setter.apply(DbOptions.builder()).build();
    // Every bloom type where the bound shapes the filter; the default type elsewhere.
    boolean filterBound = name.startsWith("bloom") || name.startsWith("every");
    for (BloomType type : filterBound ? BloomType.values() : new BloomType[] {BloomType.ROW}) {
      Path d = dir.resolve(type.name());
      DbOptions o = options.toBuilder().bloomType(type).build();
      try (Db db = Db.open(d, o)) {
        for (int i = 0; i < 50; i++) {
          db.put(b("row" + i), b("col"), b("value" + i));
        }
        db.flush();
        db.put(b("row7"), b("col"), b("newer"));
        db.compact();
        assertArrayEquals(b("newer"), db.get(b("row7"), b("col")), name);
        assertArrayEquals(b("value8"), db.get(b("row8"), b("col")), name);
      }
      try (Db db = Db.open(d, o)) {
        assertArrayEquals(b("value9"), db.get(b("row9"), b("col")), name);
        int n = 0;
        try (CellScanner cells = db.scan(null, null)) {
          while (cells.hasNext()) {
            cells.next();
            n++;
          }
        }
        assertEquals(50, n, name);
      }
    }
  }

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
