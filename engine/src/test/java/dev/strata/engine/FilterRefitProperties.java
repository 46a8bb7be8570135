package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code refitFiltersAtRest}: a tree grown under a filter memory bound, left at rest, is refit
 * only with the option on; then it spends nearly all of the bound, its expected false positives
 * fall, the bound holds before every refit and after the last, the database agrees with a model
 * throughout and after a reopen, and it is quiet once the refits stop. Seeded: each run prints its
 * seed, and a failure names it.
 */
final class FilterRefitProperties {
  @TempDir Path dir;

  private static final int KEYS = 60_000;
  /** Distinct keys drawn: about a tenth of the writes overwrite, and some delete. */
  private static final int KEY_SPACE = 50_000;

  @ParameterizedTest(name = "Ribbon from level {0}")
  @ValueSource(ints = {2, Integer.MAX_VALUE})
  void aTreeAtRest_spendsTheBound_onlyWithTheOption(int ribbonFromLevel) throws Exception {
    long seed = new SplittableRandom().nextLong();
    System.out.println("FilterRefitProperties seed " + seed + ", Ribbon from " + ribbonFromLevel);
    SplittableRandom random = new SplittableRandom(seed);
    long bound = KEYS * 4L / 8;
    DbOptions off = FilterMemoryBoundTest.growingTree(FilterAllocation.BY_LEVEL, ribbonFromLevel,
            bound)
        .readTriggeredCompactionBytesPerRead(0) // only writes and refits change the tree here
        .build();
    DbOptions on = off.toBuilder().refitFiltersAtRest(true).build();
    TreeMap<String, byte[]> model = new TreeMap<>();
    String context = "seed " + seed;

    Set<String> tablesAtRest;
    long spentBefore;
    double expectedBefore;
    try (Db db = Db.open(dir, off)) {
      for (int i = 0; i < KEYS; i++) {
        write(db, model, random);
        if (i % 10_000 == 0) {
          db.flush();
        }
      }
      db.flush();
      FilterMemoryBoundTest.settle(db);
      tablesAtRest = tableFiles();
      spentBefore = db.stats().filterBytesOnDisk();
      expectedBefore = expectedFalsePositives(db);
      assertTrue(db.tablesPerLevel().size() >= 3, context + ": a tree of levels 1 and 2: "
          + db.tablesPerLevel());
      checkModel(db, model, random, context);
      FilterMemoryBoundTest.settle(db);
      assertEquals(0, db.stats().compactions().filterRefits(), context + ": the option is off");
      assertEquals(tablesAtRest, tableFiles(), context + ": off, a tree at rest stays as it is");
    }

    try (Db db = Db.open(dir, on)) {
      assertFalse(db.backgroundWorkPending(), context + ": the open starts no refit");
      assertEquals(tablesAtRest, tableFiles(), context + ": nothing rewritten at open");
      List<String> overBound = new CopyOnWriteArrayList<>();
      db.seams().beforeEachCompaction(() -> {
        long spent = db.stats().filterBytesOnDisk();
        if (spent > bound * FilterMemoryBoundTest.SLACK) {
          overBound.add(spent + " " + db.tablesPerLevel());
        }
      });
      for (int i = 0; i < 200; i++) { // a write and its flush arm the refits
        write(db, model, random);
      }
      db.flush();
      FilterMemoryBoundTest.settle(db);
      long refits = db.stats().compactions().filterRefits();
      long spentAfter = db.stats().filterBytesOnDisk();
      double expectedAfter = expectedFalsePositives(db);
      String figures = context + ": spent " + spentBefore + " -> " + spentAfter + " of " + bound
          + ", expected false positives " + expectedBefore + " -> " + expectedAfter + ", refits "
          + refits + ", " + db.levelStats();
      System.out.println(figures);
      assertTrue(refits > 0, figures);
      assertTrue(db.describe().contains("Filter refits at rest: " + refits + ","), db.describe());
      assertTrue(overBound.isEmpty(), figures + "; over the bound before a refit: " + overBound);
      assertTrue(spentAfter <= bound * FilterMemoryBoundTest.SLACK, figures);
      assertTrue(spentAfter >= bound * 0.85, "within 15 % of the bound at rest: " + figures);
      assertTrue(expectedAfter < expectedBefore * 0.9, figures);
      checkModel(db, model, random, context);

      // Converged: nothing more is scheduled, and reads leave it quiet.
      assertFalse(db.backgroundWorkPending(), figures);
      Set<String> converged = tableFiles();
      checkModel(db, model, random, context);
      assertFalse(db.backgroundWorkPending(), figures);
      assertEquals(refits, db.stats().compactions().filterRefits(), figures);
      assertEquals(converged, tableFiles(), figures);
    }

    try (Db db = Db.open(dir, on)) {
      FilterMemoryBoundTest.settle(db);
      checkModel(db, model, random, context + " after a reopen");
      assertTrue(db.stats().filterBytesOnDisk() <= bound * FilterMemoryBoundTest.SLACK, context);
    }
  }

  /** A put (nine in ten) or a delete of a key drawn from the key space, into the db and the model. */
  private static void write(Db db, TreeMap<String, byte[]> model, SplittableRandom random)
      throws IOException {
    String key = String.format("k%08d", random.nextInt(KEY_SPACE));
    if (random.nextInt(10) == 0) {
      db.delete(bytes(key));
      model.remove(key);
    } else {
      byte[] value = ByteBuffer.allocate(24).putLong(random.nextLong()).array();
      db.put(bytes(key), value);
      model.put(key, value);
    }
  }

  /** Every row in order against the model, and Gets of random keys, present and absent. */
  private static void checkModel(Db db, TreeMap<String, byte[]> model, SplittableRandom random,
      String context) throws IOException {
    try (CellScanner scan = db.scan(new byte[0], null)) {
      Iterator<Map.Entry<String, byte[]>> expected = model.entrySet().iterator();
      while (scan.hasNext()) {
        Cell cell = scan.next();
        assertTrue(expected.hasNext(), context + ": a row the model lacks");
        Map.Entry<String, byte[]> e = expected.next();
        assertEquals(e.getKey(), new String(cell.row(), StandardCharsets.UTF_8), context);
        assertArrayEquals(e.getValue(), cell.value(), context + ": " + e.getKey());
      }
      assertFalse(expected.hasNext(), context + ": the scan ended before the model");
    }
    for (int i = 0; i < 500; i++) {
      String key = String.format("k%08d", random.nextInt(KEY_SPACE * 2));
      byte[] value = db.get(bytes(key));
      if (model.containsKey(key)) {
        assertArrayEquals(model.get(key), value, context + ": " + key);
      } else {
        assertNull(value, context + ": " + key);
      }
    }
  }

  private static double expectedFalsePositives(Db db) {
    return db.levelStats().stream().mapToDouble(LevelStats::expectedFalsePositiveRate).sum();
  }

  private Set<String> tableFiles() throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString())
          .filter(n -> n.endsWith(".sst"))
          .collect(Collectors.toCollection(TreeSet::new));
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
