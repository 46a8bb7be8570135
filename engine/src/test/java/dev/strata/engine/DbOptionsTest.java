package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.engine.write.WriteController;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

final class DbOptionsTest {

  @Test
  void defaults_matchTheDocumentedValues() {
    DbOptions o = DbOptions.defaults();
    assertEquals(BloomType.ROW, o.filters().bloomType());
    assertEquals(10.0, o.filters().bloomBitsPerKey());
    assertEquals(4096, o.filters().bloomChunkBytes());
    assertEquals(0, o.filters().prefixBloomLength());
    assertEquals(4096, o.dataBlocks().blockSizeBytes());
    assertEquals(Compression.LZ4, o.dataBlocks().compression());
    assertEquals(64L << 20, o.blockCache().blockCacheBytes());
    assertEquals(16, o.blockCache().blockCacheShards());
    assertEquals(0, o.blockCache().blockCacheOffHeapMinBytes());
    assertFalse(o.blockCache().pinL0FilterAndIndexBlocksInCache());
    assertEquals(64L << 20, o.memtable().memtableBytes());
    assertFalse(o.memtable().syncWrites());
    assertEquals(WalRecoveryMode.POINT_IN_TIME, o.memtable().walRecovery());
    assertTrue(o.compaction().autoCompaction());
    assertEquals(4, o.compaction().level0CompactionTrigger());
    assertEquals(1, o.compaction().maxSubcompactions());
    assertEquals(16L << 10, o.compaction().readTriggeredCompactionBytesPerRead());
    assertEquals(10, o.compaction().levelSizeMultiplier());
    assertEquals(64L << 20, o.compaction().targetFileSizeBytes());
    assertEquals(256L << 20, o.compaction().maxBytesForLevelBase());
    assertEquals(20, o.writeStalls().level0SlowdownTrigger());
    assertEquals(36, o.writeStalls().level0StopTrigger());
    assertEquals(64L << 30, o.writeStalls().softPendingCompactionBytesLimit());
    assertEquals(256L << 30, o.writeStalls().hardPendingCompactionBytesLimit());
    assertEquals(16L << 20, o.writeStalls().delayedWriteRate());
    assertFalse(o.files().readOnly());
    assertEquals(-1, o.files().maxOpenFiles());
    assertFalse(o.files().useDirectReads());
    assertEquals(2 << 20, o.files().compactionReadaheadBytes());
    assertEquals(0, o.reads().multiGetThreads());
    assertFalse(o.reads().warmUpOnOpen());
    assertEquals(DbOptions.builder().build(), o);
  }

  @Test
  void builder_setsEveryOption() {
    DbOptions o =
        DbOptions.builder()
            .bloomType(BloomType.ROWCOL)
            .bloomBitsPerKey(7.5)
            .bloomChunkBytes(64)
            .prefixBloomLength(3)
            .blockSizeBytes(64)
            .compression(Compression.NONE)
            .blockCacheBytes(0)
            .blockCacheShards(1)
            .blockCacheOffHeapMinBytes(0)
            .pinL0FilterAndIndexBlocksInCache(true)
            .memtableBytes(1)
            .syncWrites(true)
            .walRecovery(WalRecoveryMode.ABSOLUTE_CONSISTENCY)
            .autoCompaction(false)
            .level0CompactionTrigger(1)
            .maxSubcompactions(3)
            .readTriggeredCompactionBytesPerRead(0)
            .levelSizeMultiplier(2)
            .targetFileSizeBytes(1)
            .maxBytesForLevelBase(1)
            .level0SlowdownTrigger(3)
            .level0StopTrigger(2)
            .softPendingCompactionBytesLimit(0)
            .hardPendingCompactionBytesLimit(7)
            .delayedWriteRate(1)
            .readOnly(true)
            .maxOpenFiles(16)
            .useDirectReads(true)
            .compactionReadaheadBytes(0)
            .multiGetThreads(2)
            .warmUpOnOpen(true)
            .build();
    assertEquals(new FilterOptions(BloomType.ROWCOL, 7.5, 64, 3), o.filters());
    assertEquals(new DataBlockOptions(64, Compression.NONE), o.dataBlocks());
    assertEquals(new BlockCacheOptions(0, 1, 0, true), o.blockCache());
    assertEquals(
        new MemtableOptions(1, true, WalRecoveryMode.ABSOLUTE_CONSISTENCY), o.memtable());
    assertEquals(new CompactionOptions(false, 1, 3, 0, 2, 1, 1), o.compaction());
    assertEquals(new WriteStallOptions(3, 2, 0, 7, 1), o.writeStalls());
    assertEquals(new FileOptions(true, 16, true, 0), o.files());
    assertEquals(new ReadOptions(2, true), o.reads());
    assertEquals(o, o.toBuilder().build());
    assertEquals(o.hashCode(), o.toBuilder().build().hashCode());
    assertEquals(o.toString(), o.toBuilder().build().toString());
    assertNotEquals(o, DbOptions.defaults());
  }

  @Test
  void build_rejectsOutOfRangeValuesNamingTheOption() {
    assertRejected("bloomBitsPerKey", b -> b.bloomBitsPerKey(0.99));
    assertRejected("bloomBitsPerKey", b -> b.bloomBitsPerKey(64.01));
    assertRejected("bloomBitsPerKey", b -> b.bloomBitsPerKey(Double.NaN));
    assertRejected("bloomBitsPerKey", b -> b.bloomType(BloomType.NONE).bloomBitsPerKey(-1));
    assertRejected("bloomChunkBytes", b -> b.bloomChunkBytes(63));
    assertRejected("prefixBloomLength", b -> b.prefixBloomLength(-1));
    assertRejected(
        "prefixBloomLength", b -> b.prefixBloomLength(FilterOptions.MAX_PREFIX_BLOOM_LENGTH + 1));
    assertRejected("blockSizeBytes", b -> b.blockSizeBytes(63));
    assertRejected("blockSizeBytes", b -> b.blockSizeBytes((64 << 20) + 1));
    assertRejected("blockCacheBytes", b -> b.blockCacheBytes(-1));
    assertRejected("blockCacheShards", b -> b.blockCacheShards(0));
    assertRejected("blockCacheShards", b -> b.blockCacheShards(1025));
    assertRejected("blockCacheOffHeapMinBytes", b -> b.blockCacheOffHeapMinBytes(-1));
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
    assertRejected("multiGetThreads", b -> b.multiGetThreads(-1));
    assertRejected("multiGetThreads", b -> b.multiGetThreads(65));
  }

  @Test
  void groups_rejectOutOfRangeValuesThemselves_namingTheBuildersOption() {
    assertNamed(
        IllegalArgumentException.class,
        "bloomBitsPerKey",
        () -> new FilterOptions(BloomType.ROW, 0.5, 4096, 0));
    assertNamed(NullPointerException.class, "bloomType", () -> new FilterOptions(null, 10, 64, 0));
    assertNamed(
        NullPointerException.class, "compression", () -> new DataBlockOptions(4096, null));
    assertNamed(
        IllegalArgumentException.class,
        "blockCacheShards",
        () -> new BlockCacheOptions(0, 0, 0, false));
    assertNamed(
        NullPointerException.class, "walRecovery", () -> new MemtableOptions(1, false, null));
    assertNamed(
        IllegalArgumentException.class,
        "targetFileSizeBytes",
        () -> new CompactionOptions(true, 4, 1, 0, 10, 0, 1));
    assertNamed(
        IllegalArgumentException.class,
        "delayedWriteRate",
        () -> new WriteStallOptions(20, 36, 0, 0, 0));
    assertNamed(
        IllegalArgumentException.class, "maxOpenFiles", () -> new FileOptions(false, 3, false, 0));
    assertNamed(
        IllegalArgumentException.class, "multiGetThreads", () -> new ReadOptions(-1, false));
  }

  @Test
  void build_acceptsTheRangeBoundaries() {
    DbOptions.builder().bloomBitsPerKey(1).bloomChunkBytes(1 << 30).build();
    DbOptions.builder().bloomBitsPerKey(64).blockSizeBytes(64 << 20).build();
    DbOptions.builder().blockCacheShards(1024).levelSizeMultiplier(1000).build();
    DbOptions.builder().level0CompactionTrigger(1 << 16).memtableBytes(Long.MAX_VALUE).build();
    DbOptions.builder().maxOpenFiles(-1).build();
    DbOptions.builder().maxOpenFiles(16).level0StopTrigger(1 << 16).build();
    DbOptions.builder()
        .prefixBloomLength(FilterOptions.MAX_PREFIX_BLOOM_LENGTH)
        .multiGetThreads(ReadOptions.MAX_MULTI_GET_THREADS)
        .build();
  }

  @Test
  void filterOptions_defaultsRangesAndTheRateAsBudget() {
    FilterOptions f = DbOptions.defaults().filters();
    assertEquals(FilterAllocation.UNIFORM, f.filterAllocation());
    assertEquals(Integer.MAX_VALUE, f.ribbonFromLevel());
    assertEquals(0.0, f.bloomFalsePositiveRate());
    assertTrue(f.cacheMetadataOnWrite());
    assertEquals(10.0, f.budgetBitsPerKey());
    // A rate is converted through the blocked filter's model: 1 % needs about 9.96 bits per key.
    double bits = DbOptions.builder().bloomFalsePositiveRate(0.01).build().filters().budgetBitsPerKey();
    assertEquals(9.96, bits, 0.02);
    // The last of bloomBitsPerKey and bloomFalsePositiveRate set decides.
    assertEquals(12.0, DbOptions.builder().bloomFalsePositiveRate(0.01).bloomBitsPerKey(12).build()
        .filters().budgetBitsPerKey());
    assertEquals(0.01, DbOptions.builder().bloomBitsPerKey(12).bloomFalsePositiveRate(0.01).build()
        .filters().bloomFalsePositiveRate());
    DbOptions.builder().ribbonFromLevel(0).build();
    for (double bad : new double[] {-0.1, 1, 1.5, 1e-30, Double.NaN}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> DbOptions.builder().bloomFalsePositiveRate(bad).build());
      assertTrue(e.getMessage().contains("bloomFalsePositiveRate"), e.getMessage());
    }
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> DbOptions.builder().ribbonFromLevel(-1).build());
    assertTrue(e.getMessage().contains("ribbonFromLevel"), e.getMessage());
    assertEquals(0, f.filterMemoryBytes());
    assertFalse(f.refitFiltersAtRest(), "off by default: a quiet database does no hidden work");
    IllegalArgumentException m = assertThrows(IllegalArgumentException.class,
        () -> DbOptions.builder().filterMemoryBytes(-1).build());
    assertTrue(m.getMessage().contains("filterMemoryBytes"), m.getMessage());
    // What the memory affords, never below one bit per key; the budget when it affords more.
    FilterOptions bounded = DbOptions.builder().filterMemoryBytes(1_000).build().filters();
    assertEquals(4.0, bounded.averageBitsPerKey(2_000), 1e-9);
    assertEquals(1.0, bounded.averageBitsPerKey(1_000_000), 1e-9);
    assertEquals(10.0, bounded.averageBitsPerKey(100), 1e-9);
    NullPointerException n =
        assertThrows(NullPointerException.class, () -> DbOptions.builder().filterAllocation(null));
    assertTrue(n.getMessage().contains("filterAllocation"), n.getMessage());
  }

  @Test
  void enumSetters_rejectNullNamingTheOption() {
    NullPointerException e =
        assertThrows(NullPointerException.class, () -> DbOptions.builder().bloomType(null));
    assertTrue(e.getMessage().contains("bloomType"), e.getMessage());
    e = assertThrows(NullPointerException.class, () -> DbOptions.builder().compression(null));
    assertTrue(e.getMessage().contains("compression"), e.getMessage());
    e = assertThrows(NullPointerException.class, () -> DbOptions.builder().walRecovery(null));
    assertTrue(e.getMessage().contains("walRecovery"), e.getMessage());
  }

  /**
   * One variant per option, each differing from the defaults in that option alone. The test below
   * checks that the list names every option of every group, so a new option needs a line here.
   */
  private static final Map<String, UnaryOperator<DbOptions.Builder>> ONE_OPTION_CHANGED =
      new LinkedHashMap<>();

  static {
    Map<String, UnaryOperator<DbOptions.Builder>> m = ONE_OPTION_CHANGED;
    m.put("bloomType", b -> b.bloomType(BloomType.ROWCOL));
    m.put("bloomBitsPerKey", b -> b.bloomBitsPerKey(11));
    m.put("bloomChunkBytes", b -> b.bloomChunkBytes(8192));
    m.put("prefixBloomLength", b -> b.prefixBloomLength(4));
    m.put("filterAllocation", b -> b.filterAllocation(FilterAllocation.BY_LEVEL));
    m.put("ribbonFromLevel", b -> b.ribbonFromLevel(1));
    m.put("bloomFalsePositiveRate", b -> b.bloomFalsePositiveRate(0.01));
    m.put("filterMemoryBytes", b -> b.filterMemoryBytes(1 << 20));
    m.put("cacheMetadataOnWrite", b -> b.cacheMetadataOnWrite(false));
    m.put("refitFiltersAtRest", b -> b.refitFiltersAtRest(true));
    m.put("blockSizeBytes", b -> b.blockSizeBytes(8192));
    m.put("compression", b -> b.compression(Compression.NONE));
    m.put("blockCacheBytes", b -> b.blockCacheBytes(1 << 20));
    m.put("blockCacheShards", b -> b.blockCacheShards(8));
    m.put("blockCacheOffHeapMinBytes", b -> b.blockCacheOffHeapMinBytes(Long.MAX_VALUE));
    m.put("pinL0FilterAndIndexBlocksInCache", b -> b.pinL0FilterAndIndexBlocksInCache(true));
    m.put("memtableBytes", b -> b.memtableBytes(1 << 20));
    m.put("syncWrites", b -> b.syncWrites(true));
    m.put("walRecovery", b -> b.walRecovery(WalRecoveryMode.ABSOLUTE_CONSISTENCY));
    m.put("autoCompaction", b -> b.autoCompaction(false));
    m.put("level0CompactionTrigger", b -> b.level0CompactionTrigger(5));
    m.put("maxSubcompactions", b -> b.maxSubcompactions(2));
    m.put("readTriggeredCompactionBytesPerRead", b -> b.readTriggeredCompactionBytesPerRead(0));
    m.put("levelSizeMultiplier", b -> b.levelSizeMultiplier(8));
    m.put("targetFileSizeBytes", b -> b.targetFileSizeBytes(1 << 20));
    m.put("maxBytesForLevelBase", b -> b.maxBytesForLevelBase(1 << 20));
    m.put("level0SlowdownTrigger", b -> b.level0SlowdownTrigger(21));
    m.put("level0StopTrigger", b -> b.level0StopTrigger(37));
    m.put("softPendingCompactionBytesLimit", b -> b.softPendingCompactionBytesLimit(0));
    m.put("hardPendingCompactionBytesLimit", b -> b.hardPendingCompactionBytesLimit(0));
    m.put("delayedWriteRate", b -> b.delayedWriteRate(1));
    m.put("readOnly", b -> b.readOnly(true));
    m.put("maxOpenFiles", b -> b.maxOpenFiles(100));
    m.put("useDirectReads", b -> b.useDirectReads(true));
    m.put("compactionReadaheadBytes", b -> b.compactionReadaheadBytes(0));
    m.put("multiGetThreads", b -> b.multiGetThreads(1));
    m.put("warmUpOnOpen", b -> b.warmUpOnOpen(true));
  }

  @Test
  void equals_optionsDifferingInAnySingleOption_areUnequal() throws Exception {
    DbOptions defaults = DbOptions.defaults();
    Map<String, Object> defaultValues = optionValues(defaults);
    assertEquals(defaultValues.keySet(), ONE_OPTION_CHANGED.keySet(), "one variant per option");
    for (Map.Entry<String, UnaryOperator<DbOptions.Builder>> e : ONE_OPTION_CHANGED.entrySet()) {
      String option = e.getKey();
      DbOptions changed = e.getValue().apply(DbOptions.builder()).build();
      List<String> differing = new ArrayList<>();
      optionValues(changed)
          .forEach((name, v) -> {
            if (!v.equals(defaultValues.get(name))) {
              differing.add(name);
            }
          });
      assertEquals(List.of(option), differing, "the variant changes " + option + " alone");
      assertNotEquals(defaults, changed, option + " left out of equals");
      assertNotEquals(changed, defaults, option + " left out of equals");
      DbOptions again = changed.toBuilder().build();
      assertEquals(changed, again, option + " lost by toBuilder");
      assertEquals(changed.hashCode(), again.hashCode(), option);
    }
  }

  @Test
  void toString_namesEveryOptionWithItsValue() throws Exception {
    String s = DbOptions.defaults().toString();
    optionValues(DbOptions.defaults())
        .forEach((name, value) -> assertTrue(s.contains(name + "=" + value), name + " in " + s));
    assertTrue(s.contains("bloomType=ROW"), s);
    assertTrue(s.contains("blockCacheBytes=67108864"), s);
    String changed = DbOptions.builder().maxOpenFiles(100).build().toString();
    assertTrue(changed.contains("maxOpenFiles=100"), changed);
  }

  @Test
  void writeController_raisesTriggersThatWouldStopWritesForever() {
    // Stopping below the compaction trigger would wait for a compaction that never starts.
    assertEquals(20, controller(DbOptions.builder().level0StopTrigger(2).build()).level0StopTrigger());
    assertEquals(
        30,
        controller(
                DbOptions.builder()
                    .level0CompactionTrigger(30)
                    .level0StopTrigger(5)
                    .level0SlowdownTrigger(5)
                    .build())
            .level0StopTrigger());
    assertEquals(36, controller(DbOptions.defaults()).level0StopTrigger());
  }

  private static WriteController controller(DbOptions o) {
    return o.writeStalls().controller(o.compaction(), o.writeStalls().bulkLoads(o.compaction()));
  }

  @Test
  void defaults_isOneSharedInstance() {
    assertSame(DbOptions.defaults(), DbOptions.defaults());
  }

  /** Every option of every group, by its name: the record components of the group accessors. */
  private static Map<String, Object> optionValues(DbOptions o) throws Exception {
    Map<String, Object> values = new LinkedHashMap<>();
    for (Method group : DbOptions.class.getMethods()) {
      if (group.getParameterCount() == 0 && group.getReturnType().isRecord()) {
        Object record = group.invoke(o);
        for (RecordComponent c : group.getReturnType().getRecordComponents()) {
          Object previous = values.put(c.getName(), c.getAccessor().invoke(record));
          assertEquals(null, previous, c.getName() + " is in two groups");
        }
      }
    }
    return values;
  }

  private static void assertRejected(String option, UnaryOperator<DbOptions.Builder> setter) {
    DbOptions.Builder b = setter.apply(DbOptions.builder());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, b::build);
    assertTrue(e.getMessage().startsWith(option + " "), e.getMessage());
  }

  private static void assertNamed(
      Class<? extends RuntimeException> type, String option, Executable construction) {
    RuntimeException e = assertThrows(type, construction);
    assertTrue(e.getMessage().startsWith(option + " "), e.getMessage());
  }
}
