package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

final class DbOptionsTest {

  @Test
  void defaults_matchTheDocumentedValues() {
    DbOptions o = DbOptions.defaults();
    assertEquals(BloomType.ROW, o.bloomType());
    assertEquals(10.0, o.bloomBitsPerKey());
    assertEquals(4096, o.bloomChunkBytes());
    assertEquals(4096, o.blockSizeBytes());
    assertEquals(Compression.LZ4, o.compression());
    assertEquals(64L << 20, o.blockCacheBytes());
    assertEquals(16, o.blockCacheShards());
    assertEquals(64L << 20, o.memtableBytes());
    assertFalse(o.syncWrites());
    assertTrue(o.autoCompaction());
    assertEquals(4, o.level0CompactionTrigger());
    assertEquals(1, o.maxSubcompactions());
    assertEquals(16L << 10, o.readTriggeredCompactionBytesPerRead());
    assertEquals(10, o.levelSizeMultiplier());
    assertEquals(64L << 20, o.targetFileSizeBytes());
    assertEquals(256L << 20, o.maxBytesForLevelBase());
    assertEquals(20, o.level0SlowdownTrigger());
    assertEquals(36, o.level0StopTrigger());
    assertEquals(64L << 30, o.softPendingCompactionBytesLimit());
    assertEquals(256L << 30, o.hardPendingCompactionBytesLimit());
    assertEquals(16L << 20, o.delayedWriteRate());
    assertEquals(-1, o.maxOpenFiles());
    assertFalse(o.useDirectReads());
    assertEquals(2 << 20, o.compactionReadaheadBytes());
    assertEquals(DbOptions.builder().build(), o);
  }

  @Test
  void builder_setsEveryOption() {
    DbOptions o =
        DbOptions.builder()
            .bloomType(BloomType.ROWCOL)
            .bloomBitsPerKey(7.5)
            .bloomChunkBytes(64)
            .blockSizeBytes(64)
            .compression(Compression.NONE)
            .blockCacheBytes(0)
            .blockCacheShards(1)
            .memtableBytes(1)
            .syncWrites(true)
            .autoCompaction(false)
            .level0CompactionTrigger(1)
            .levelSizeMultiplier(2)
            .targetFileSizeBytes(1)
            .maxBytesForLevelBase(1)
            .level0SlowdownTrigger(3)
            .level0StopTrigger(2)
            .softPendingCompactionBytesLimit(0)
            .hardPendingCompactionBytesLimit(7)
            .delayedWriteRate(1)
            .maxOpenFiles(16)
            .useDirectReads(true)
            .compactionReadaheadBytes(0)
            .build();
    assertEquals(BloomType.ROWCOL, o.bloomType());
    assertEquals(7.5, o.bloomBitsPerKey());
    assertEquals(64, o.bloomChunkBytes());
    assertEquals(64, o.blockSizeBytes());
    assertEquals(Compression.NONE, o.compression());
    assertEquals(0, o.blockCacheBytes());
    assertEquals(1, o.blockCacheShards());
    assertEquals(1, o.memtableBytes());
    assertTrue(o.syncWrites());
    assertFalse(o.autoCompaction());
    assertEquals(1, o.level0CompactionTrigger());
    assertEquals(2, o.levelSizeMultiplier());
    assertEquals(1, o.targetFileSizeBytes());
    assertEquals(1, o.maxBytesForLevelBase());
    assertEquals(3, o.level0SlowdownTrigger());
    assertEquals(2, o.level0StopTrigger());
    assertEquals(0, o.softPendingCompactionBytesLimit());
    assertEquals(7, o.hardPendingCompactionBytesLimit());
    assertEquals(1, o.delayedWriteRate());
    assertEquals(16, o.maxOpenFiles());
    assertTrue(o.useDirectReads());
    assertEquals(0, o.compactionReadaheadBytes());
    assertEquals(o, o.toBuilder().build());
    assertEquals(o.hashCode(), o.toBuilder().build().hashCode());
    assertNotEquals(o, DbOptions.defaults());
  }

  @Test
  void build_rejectsOutOfRangeValuesNamingTheOption() {
    assertRejected("bloomBitsPerKey", b -> b.bloomBitsPerKey(0.99));
    assertRejected("bloomBitsPerKey", b -> b.bloomBitsPerKey(64.01));
    assertRejected("bloomBitsPerKey", b -> b.bloomBitsPerKey(Double.NaN));
    assertRejected("bloomBitsPerKey", b -> b.bloomType(BloomType.NONE).bloomBitsPerKey(-1));
    assertRejected("bloomChunkBytes", b -> b.bloomChunkBytes(63));
    assertRejected("blockSizeBytes", b -> b.blockSizeBytes(63));
    assertRejected("blockSizeBytes", b -> b.blockSizeBytes((64 << 20) + 1));
    assertRejected("blockCacheBytes", b -> b.blockCacheBytes(-1));
    assertRejected("blockCacheShards", b -> b.blockCacheShards(0));
    assertRejected("blockCacheShards", b -> b.blockCacheShards(1025));
    assertRejected("memtableBytes", b -> b.memtableBytes(0));
    assertRejected("level0CompactionTrigger", b -> b.level0CompactionTrigger(0));
    assertRejected("levelSizeMultiplier", b -> b.levelSizeMultiplier(1));
    assertRejected("levelSizeMultiplier", b -> b.levelSizeMultiplier(1001));
    assertRejected("targetFileSizeBytes", b -> b.targetFileSizeBytes(0));
    assertRejected("maxBytesForLevelBase", b -> b.maxBytesForLevelBase(-5));
    assertRejected("level0SlowdownTrigger", b -> b.level0SlowdownTrigger(0));
    assertRejected("level0StopTrigger", b -> b.level0StopTrigger(0));
    assertRejected("level0StopTrigger", b -> b.level0StopTrigger((1 << 16) + 1));
    assertRejected("softPendingCompactionBytesLimit", b -> b.softPendingCompactionBytesLimit(-1));
    assertRejected("hardPendingCompactionBytesLimit", b -> b.hardPendingCompactionBytesLimit(-1));
    assertRejected("delayedWriteRate", b -> b.delayedWriteRate(0));
    assertRejected("maxOpenFiles", b -> b.maxOpenFiles(0));
    assertRejected("maxOpenFiles", b -> b.maxOpenFiles(15));
    assertRejected("maxOpenFiles", b -> b.maxOpenFiles(-2));
    assertRejected("maxSubcompactions", b -> b.maxSubcompactions(0));
    assertRejected("maxSubcompactions", b -> b.maxSubcompactions(65));
    assertRejected(
        "readTriggeredCompactionBytesPerRead", b -> b.readTriggeredCompactionBytesPerRead(-1));
    assertRejected("compactionReadaheadBytes", b -> b.compactionReadaheadBytes(-1));
    assertRejected("compactionReadaheadBytes", b -> b.compactionReadaheadBytes((64 << 20) + 1));
  }

  @Test
  void build_acceptsTheRangeBoundaries() {
    DbOptions.builder().bloomBitsPerKey(1).bloomChunkBytes(1 << 30).build();
    DbOptions.builder().bloomBitsPerKey(64).blockSizeBytes(64 << 20).build();
    DbOptions.builder().blockCacheShards(1024).levelSizeMultiplier(1000).build();
    DbOptions.builder().level0CompactionTrigger(1 << 16).memtableBytes(Long.MAX_VALUE).build();
    DbOptions.builder().maxOpenFiles(-1).build();
    DbOptions.builder().maxOpenFiles(16).level0StopTrigger(1 << 16).build();
  }

  @Test
  void enumSetters_rejectNullNamingTheOption() {
    NullPointerException e =
        assertThrows(NullPointerException.class, () -> DbOptions.builder().bloomType(null));
    assertTrue(e.getMessage().contains("bloomType"), e.getMessage());
    e = assertThrows(NullPointerException.class, () -> DbOptions.builder().compression(null));
    assertTrue(e.getMessage().contains("compression"), e.getMessage());
  }

  @Test
  void toString_namesEveryOption() {
    String s = DbOptions.defaults().toString();
    for (String name :
        new String[] {
          "bloomType=ROW",
          "bloomBitsPerKey=10.0",
          "bloomChunkBytes=4096",
          "blockSizeBytes=4096",
          "compression=LZ4",
          "blockCacheBytes=67108864",
          "blockCacheShards=16",
          "memtableBytes=67108864",
          "syncWrites=false",
          "autoCompaction=true",
          "level0CompactionTrigger=4",
          "levelSizeMultiplier=10",
          "targetFileSizeBytes=67108864",
          "maxBytesForLevelBase=268435456",
          "level0SlowdownTrigger=20",
          "level0StopTrigger=36",
          "delayedWriteRate=16777216",
          "maxOpenFiles=-1",
          "useDirectReads=false",
          "compactionReadaheadBytes=2097152"
        }) {
      assertTrue(s.contains(name), name + " missing from " + s);
    }
  }

  @Test
  void writeController_raisesTriggersThatWouldStopWritesForever() {
    // Stopping below the compaction trigger would wait for a compaction that never starts.
    assertEquals(20, DbOptions.builder().level0StopTrigger(2).build().writeController().level0StopTrigger());
    assertEquals(
        30,
        DbOptions.builder()
            .level0CompactionTrigger(30)
            .level0StopTrigger(5)
            .level0SlowdownTrigger(5)
            .build()
            .writeController()
            .level0StopTrigger());
    assertEquals(36, DbOptions.defaults().writeController().level0StopTrigger());
  }

  @Test
  void defaults_isOneSharedInstance() {
    assertSame(DbOptions.defaults(), DbOptions.defaults());
  }

  private static void assertRejected(String option, UnaryOperator<DbOptions.Builder> setter) {
    DbOptions.Builder b = setter.apply(DbOptions.builder());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, b::build);
    assertTrue(e.getMessage().startsWith(option + " "), e.getMessage());
  }
}
