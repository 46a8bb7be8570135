package dev.strata.engine.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.engine.DbOptions;
import dev.strata.engine.memtable.MemTable;
import dev.strata.engine.version.TableRef;
import dev.strata.engine.version.Version;
import dev.strata.engine.version.WastedReads;
import dev.strata.sstable.key.ValueKind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ReadTrigger}'s decisions on versions of table entries (no files are read): the budget,
 * one per state of level 0, the quiet window, and when a due compaction no longer applies.
 */
class ReadTriggerTest {
  private static final long MIB = 1 << 20;
  private static final long MEMTABLE_BYTES = 1 << 20;

  @TempDir Path dir;
  private TableEntries entries;
  private final List<WastedReads> spent = new ArrayList<>();

  @BeforeEach
  void open() {
    entries = new TableEntries(dir);
  }

  @AfterEach
  void close() {
    entries.close();
  }

  @Test
  void budget_isTheCompactionsInputBytesOverBytesPerRead_atLeast100() throws IOException {
    Version v = twoLevelZeroTablesOverLevelOne();
    ReadTrigger trigger = trigger(options());
    assertTrue(trigger.refresh(v, new MemTable()));
    // Level 0 (2 MiB) and the one level-1 table it overlaps (2 MiB; "x".."z" is outside it).
    assertEquals(4 * MIB / (16 << 10), trigger.reads().budget());

    ReadTrigger cheap = trigger(options().readTriggeredCompactionBytesPerRead(1L << 40));
    cheap.refresh(v, new MemTable());
    assertEquals(ReadTrigger.MIN_BUDGET, cheap.reads().budget());
  }

  @Test
  void refresh_armsOncePerStateOfLevelZero() throws IOException {
    List<List<TableRef>> levels = TableEntries.emptyLevels();
    levels.get(0).add(entries.table(0, "a", "m", MIB));
    Version v = Version.of(levels);
    MemTable mem = new MemTable();
    ReadTrigger trigger = trigger(options());
    assertTrue(trigger.refresh(v, mem));
    WastedReads first = trigger.reads();
    assertFalse(trigger.refresh(v, mem), "the same level 0: the same budget");
    assertSame(first, trigger.reads());

    levels.get(1).add(entries.table(1, "n", "z", MIB)); // a deeper change leaves level 0 as it was
    assertFalse(trigger.refresh(Version.of(levels), mem));
    assertSame(first, trigger.reads());

    levels.get(0).add(0, entries.table(0, "b", "c", MIB)); // a flush
    assertTrue(trigger.refresh(Version.of(levels), mem));
    assertNotSame(first, trigger.reads());

    assertTrue(trigger.refresh(Version.empty(), mem), "level 0 emptied: nothing to charge");
    assertSame(WastedReads.NONE, trigger.reads());
    assertFalse(trigger.refresh(Version.empty(), mem));
  }

  @Test
  void refresh_whenOff_armsNothing() throws IOException {
    Version v = twoLevelZeroTablesOverLevelOne();
    for (DbOptions o :
        List.of(
            options().readTriggeredCompactionBytesPerRead(0).build(),
            options().autoCompaction(false).build(),
            options().readOnly(true).build())) {
      ReadTrigger trigger = new ReadTrigger(o, spent::add);
      assertFalse(trigger.refresh(v, new MemTable()), o.toString());
      assertSame(WastedReads.NONE, trigger.reads());
    }
  }

  @Test
  void spentInAQuietWindow_isDue_andTakenOnce() throws IOException {
    Version v = twoLevelZeroTablesOverLevelOne();
    MemTable mem = new MemTable();
    ReadTrigger trigger = trigger(options());
    trigger.refresh(v, mem);
    spend(trigger.reads());
    assertEquals(List.of(trigger.reads()), spent, "the reader hands the budget over");
    grow(mem, MEMTABLE_BYTES / ReadTrigger.QUIET_GROWTH_FRACTION / 2); // a trickle of writes
    assertEquals(ReadTrigger.Outcome.DUE, trigger.budgetSpent(spent.get(0), mem));
    assertTrue(trigger.due());

    Compaction c = trigger.take(v, false);
    assertEquals(0, c.level());
    assertEquals(1, c.outputLevel());
    assertEquals(v.level(0), c.inputs());
    assertEquals(1, c.outputLevelInputs().size());
    assertFalse(trigger.due());
    assertNull(trigger.take(v, false), "taken once");
    trigger.ran();
    assertEquals(1, trigger.compactions());
  }

  @Test
  void writesDuringTheWindow_openANewOne() throws IOException {
    Version v = twoLevelZeroTablesOverLevelOne();
    MemTable mem = new MemTable();
    ReadTrigger trigger = trigger(options());
    trigger.refresh(v, mem);
    WastedReads first = trigger.reads();
    spend(first);
    grow(mem, MEMTABLE_BYTES / ReadTrigger.QUIET_GROWTH_FRACTION + 1);
    assertEquals(ReadTrigger.Outcome.REARMED, trigger.budgetSpent(first, mem));
    assertFalse(trigger.due());
    WastedReads second = trigger.reads();
    assertNotSame(first, second);
    assertEquals(first.budget(), second.budget());
    assertFalse(second.spent());

    spend(second);
    MemTable next = new MemTable(); // the memtable was frozen for a flush meanwhile
    assertEquals(ReadTrigger.Outcome.REARMED, trigger.budgetSpent(second, next));

    WastedReads third = trigger.reads();
    spend(third);
    assertEquals(ReadTrigger.Outcome.DUE, trigger.budgetSpent(third, next), "quiet at last");
    assertEquals(ReadTrigger.Outcome.STALE, trigger.budgetSpent(first, next), "an old budget");
  }

  @Test
  void aDueCompaction_isDropped_whenAFlushIsPending_orLevelZeroChanged() throws IOException {
    List<List<TableRef>> levels = TableEntries.emptyLevels();
    levels.get(0).add(entries.table(0, "a", "z", MIB));
    Version v = Version.of(levels);
    MemTable mem = new MemTable();
    ReadTrigger trigger = trigger(options());
    trigger.refresh(v, mem);
    spend(trigger.reads());
    assertEquals(ReadTrigger.Outcome.DUE, trigger.budgetSpent(trigger.reads(), mem));
    assertNull(trigger.take(v, true), "a flush is pending: write-driven work first");
    assertFalse(trigger.due(), "dropped, not retried: the flush changes level 0 anyway");

    trigger.refresh(v, mem); // the same level 0: still spent, nothing new
    assertFalse(trigger.due());

    levels.get(0).add(0, entries.table(0, "b", "c", MIB));
    Version flushed = Version.of(levels);
    trigger.refresh(flushed, mem);
    spend(trigger.reads());
    assertEquals(ReadTrigger.Outcome.DUE, trigger.budgetSpent(trigger.reads(), mem));
    assertNull(trigger.take(v, false), "level 0 is not the one whose reads spent the budget");
  }

  private ReadTrigger trigger(DbOptions.Builder b) {
    return new ReadTrigger(b.build(), spent::add);
  }

  private static DbOptions.Builder options() {
    return DbOptions.builder().memtableBytes(MEMTABLE_BYTES);
  }

  private static void spend(WastedReads reads) {
    for (long i = 0; i < reads.budget() * 2 && !reads.spent(); i++) {
      reads.charge(1);
    }
    assertTrue(reads.spent());
  }

  private static void grow(MemTable mem, long bytes) {
    long target = mem.approximateBytes() + bytes;
    for (int i = 0; mem.approximateBytes() < target; i++) {
      mem.add(ValueKind.PUT, ("w" + i).getBytes(StandardCharsets.UTF_8), new byte[0], i + 1,
          new byte[100]);
    }
  }

  private Version twoLevelZeroTablesOverLevelOne() throws IOException {
    List<List<TableRef>> levels = TableEntries.emptyLevels();
    levels.get(0).add(entries.table(0, "a", "m", MIB));
    levels.get(0).add(0, entries.table(0, "b", "k", MIB));
    levels.get(1).add(entries.table(1, "a", "p", 2 * MIB));
    levels.get(1).add(entries.table(1, "x", "z", 8 * MIB));
    return Version.of(levels);
  }
}
