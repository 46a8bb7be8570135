package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.strata.engine.fs.FaultyFileLayer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Power loss at random points in a history that mixes logged writes with bulk loads whose writes
 * skip the log ({@link BulkLoad#write}). Each cycle writes batches, each carrying the commit marker
 * {@code last-<cycle>} set to its own index, through a {@link FaultyFileLayer} until the power goes
 * after a random number of file writes; loads open and close at random between them, and some
 * writes are logged while a load is open. The reopened database must hold, of the cycle's batches
 * in order, a prefix (each batch whole or not at all, none after a missing one), at least every
 * batch a force vouched for (every logged batch under {@code syncWrites}, every batch before a
 * returned {@code flush()} or load close, every batch before a logged one that returned under
 * {@code syncWrites}), and the marker naming exactly the prefix's last batch.
 *
 * <p>Seeded: the seed is printed, and {@code -Dstrata.seed=N} replays a run as far as the seed
 * decides it (the flush and compaction threads' timing decides the rest).
 */
final class UnloggedLoadPowerLossProperties {
  private static final int CYCLES = 24;

  @TempDir Path dir;

  @Test
  void powerLoss_aroundUnloggedLoads_keepsAPrefixWithItsMarkerAndEveryForcedWrite()
      throws Exception {
    long seed = Long.getLong("strata.seed", System.nanoTime());
    System.out.println("UnloggedLoadPowerLossProperties seed=" + seed);
    Random random = new Random(seed);
    List<Integer> keptPerCycle = new ArrayList<>();
    List<Integer> attemptedPerCycle = new ArrayList<>();
    List<List<Integer>> batchSizes = new ArrayList<>(); // per cycle, each batch's puts
    for (int cycle = 0; cycle < CYCLES; cycle++) {
      FaultyFileLayer files = new FaultyFileLayer();
      boolean sync = random.nextBoolean();
      DbOptions options =
          DbOptions.builder()
              .syncWrites(sync)
              .memtableBytes(512 + random.nextInt(8192))
              .autoCompaction(random.nextBoolean())
              .level0CompactionTrigger(2)
              .build();
      files.powerLossAfterWrites(random.nextInt(150));
      int attempted = 0;
      int durable = 0;
      String context = "seed=" + seed + " cycle=" + cycle + " sync=" + sync;
      List<Integer> sizes = new ArrayList<>();
      batchSizes.add(sizes);
      try (Db db = Db.open(dir, options, EngineHooks.NONE.withFileLayer(files))) {
        BulkLoad load = null;
        while (attempted < 1000) {
          if (random.nextInt(25) == 0) {
            int before = attempted;
            if (load == null) {
              load = db.bulkLoad(2 + random.nextInt(8));
            } else {
              load.close(); // flushes what went through it
              load = null;
              durable = Math.max(durable, before);
            }
          }
          WriteBatch batch = batch(cycle, attempted, random);
          sizes.add(batch.size());
          attempted++;
          boolean unlogged = load != null && random.nextInt(8) != 0;
          if (unlogged) {
            load.write(batch);
          } else {
            db.write(batch); // after unlogged writes: waits for their flush
            if (sync) {
              durable = attempted;
            }
          }
          if (random.nextInt(40) == 0) {
            int before = attempted;
            db.flush();
            durable = Math.max(durable, before);
          }
        }
        if (load != null) {
          load.close();
          durable = attempted;
        }
      } catch (IOException | IllegalStateException | UncheckedIOException e) {
        // The power went: the write, flush, load close or open in progress failed.
        if (!files.crashed()) {
          throw new AssertionError(context + ": failed without a power loss", e);
        }
      }
      List<String> damage = files.powerLoss(random);
      attemptedPerCycle.add(attempted);
      context += " attempted=" + attempted + " durable=" + durable + " damage=" + damage;
      try (Db db = Db.open(dir, options)) {
        int kept = PowerLossProperties.keptPrefix(db, cycle, attempted, batchSizes, context);
        assertTrue(kept >= durable, context + ": kept " + kept + " batches, " + durable + " forced");
        byte[] marker = db.commitMarkers().get(markerName(cycle));
        if (kept == 0) {
          assertNull(marker, context + ": a marker without its batch");
        } else {
          assertArrayEquals(b(Integer.toString(kept - 1)), marker, context + ": marker");
        }
        keptPerCycle.add(kept);
        for (int c = 0; c < cycle; c++) {
          int k = PowerLossProperties.keptPrefix(
              db, c, attemptedPerCycle.get(c), batchSizes, context + " old cycle " + c);
          if (k != keptPerCycle.get(c)) {
            fail(context + ": cycle " + c + " had " + keptPerCycle.get(c) + " batches, now " + k);
          }
        }
      }
    }
  }

  /** Batch {@code w} of {@code cycle}: 1 to 3 puts and the cycle's marker set to {@code w}. */
  private static WriteBatch batch(int cycle, int w, Random random) {
    WriteBatch batch = new WriteBatch();
    int size = 1 + (w % 3);
    for (int j = 0; j < size; j++) {
      batch.put(PowerLossProperties.key(cycle, w, j), b(""), b(cycle + "/" + w + "/" + j + "/"
          + "v".repeat(random.nextInt(200))));
    }
    return batch.putCommitMarker(markerName(cycle), b(Integer.toString(w)));
  }

  private static byte[] markerName(int cycle) {
    return b("last-" + cycle);
  }

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
