package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.strata.engine.fs.FaultyFileLayer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Power loss at random points, many cycles on one database. Each cycle writes
 * batches through a {@link FaultyFileLayer} until the power goes after a random number of file
 * writes (in a third of the cycles, of manifest writes only: its appends and whole rewrites); the
 * layer then drops, zeroes, cuts or punches holes in everything that was not forced, may lose the
 * names of files never forced into their directory (logs, tables, the manifest), and may undo a
 * rename of the manifest whose directory was not synced. The reopened database must
 * hold, of the cycle's batches in order, a prefix: each batch whole or not at all, none after a
 * missing one, and at least every batch acknowledged before a force vouched for it (every
 * acknowledged batch under {@code syncWrites}; under {@code syncWrites(false)} those acknowledged
 * before a {@code flush()} returned). What earlier cycles recovered stays exactly as it was.
 *
 * <p>Seeded: the seed is printed, and {@code -Dstrata.seed=N} replays a run as far as the seed
 * decides it (the flush and compaction threads' timing decides the rest), so a failure also keeps
 * the database's files, as the power loss found them and as it left them, under {@code
 * target/power-loss-failures/} ({@link PowerLossEvidence}).
 */
final class PowerLossProperties {
  private static final int CYCLES = 24;

  @TempDir Path dir;

  /** Where each cycle's files are copied before the power loss damages them. */
  @TempDir Path scratch;

  @Test
  void powerLoss_atRandomPoints_keepsEveryForcedWriteAndAPrefixOfTheRest() throws Exception {
    long seed = Long.getLong("strata.seed", System.nanoTime());
    System.out.println("PowerLossProperties seed=" + seed);
    Random random = new Random(seed);
    List<Integer> batchesPerCycle = new ArrayList<>(); // attempted batches of each cycle
    List<Integer> keptPerCycle = new ArrayList<>(); // the prefix recovery kept
    List<List<Integer>> batchSizes = new ArrayList<>(); // per cycle, each batch's puts
    for (int cycle = 0; cycle < CYCLES; cycle++) {
      FaultyFileLayer files = new FaultyFileLayer();
      boolean sync = random.nextBoolean();
      DbOptions.Builder b =
          DbOptions.builder()
              .syncWrites(sync)
              .memtableBytes(512 + random.nextInt(8192))
              .autoCompaction(random.nextBoolean())
              .level0CompactionTrigger(2);
      DbOptions options = b.build();
      if (random.nextInt(3) == 0) {
        files.powerLossAfterWrites(random.nextInt(8), FaultyFileLayer::isManifest);
      } else {
        files.powerLossAfterWrites(random.nextInt(120));
      }
      int attempted = 0;
      int acked = 0;
      int durable = 0;
      String context = "seed=" + seed + " cycle=" + cycle + " options=" + options;
      List<Integer> sizes = new ArrayList<>();
      batchSizes.add(sizes);
      try (Db db = Db.open(dir, options, EngineHooks.NONE.withFileLayer(files))) {
        while (attempted < 1000) {
          int size = 1 + random.nextInt(3);
          WriteBatch batch = new WriteBatch();
          for (int j = 0; j < size; j++) {
            batch.put(key(cycle, attempted, j), b(""), value(cycle, attempted, j, random));
          }
          attempted++;
          sizes.add(size);
          db.write(batch);
          acked = attempted;
          if (sync) {
            durable = attempted;
          }
          if (random.nextInt(30) == 0) {
            int before = attempted;
            db.flush();
            durable = Math.max(durable, before);
          }
        }
      } catch (IOException | IllegalStateException e) {
        // The power went: the write, flush or open in progress failed.
        if (!files.crashed()) {
          throw new AssertionError(context + ": failed without a power loss", e);
        }
      }
      PowerLossEvidence evidence = PowerLossEvidence.before(dir, scratch.resolve("cycle" + cycle));
      List<String> damage = files.powerLoss(random);
      batchesPerCycle.add(attempted);
      context += " attempted=" + attempted + " acked=" + acked + " durable=" + durable
          + " damage=" + damage;
      try {
        checkCycle(cycle, options, attempted, durable, batchesPerCycle, keptPerCycle, batchSizes,
            context);
      } catch (IOException | RuntimeException | AssertionError e) {
        // The interleaving of the background threads, not the seed, may have made this failure.
        throw new AssertionError(
            context + ": " + e + evidence.keep(dir, "seed" + seed + "-cycle" + cycle), e);
      }
    }
  }

  /** Reopens after cycle {@code cycle}'s power loss and checks what it and the earlier ones kept. */
  private void checkCycle(int cycle, DbOptions options, int attempted, int durable,
      List<Integer> batchesPerCycle, List<Integer> keptPerCycle, List<List<Integer>> batchSizes,
      String context) throws IOException {
    try (Db db = Db.open(dir, options)) {
      context += " dropped at open: " + db.stats().recovery().walBytesDropped() + " bytes, "
          + db.stats().recovery().walRecordsDropped() + " records";
      int kept = keptPrefix(db, cycle, attempted, batchSizes, context);
      assertTrue(
          kept >= durable,
          context + ": kept " + kept + " batches, but " + durable + " were forced");
      keptPerCycle.add(kept);
      for (int c = 0; c < cycle; c++) {
        int k = keptPrefix(db, c, batchesPerCycle.get(c), batchSizes, context + " old cycle " + c);
        if (k != keptPerCycle.get(c)) {
          fail(context + ": cycle " + c + " had " + keptPerCycle.get(c) + " batches, now " + k);
        }
      }
    }
  }

  /**
   * The batches of {@code cycle} present, checking they are whole and form a prefix: batch {@code
   * w} put {@code batchSizes.get(cycle).get(w)} keys {@link #key}, each value starting {@code
   * cycle/w/j/}.
   */
  static int keptPrefix(
      Db db, int cycle, int attempted, List<List<Integer>> batchSizes, String context)
      throws IOException {
    int kept = 0;
    boolean gap = false;
    for (int w = 0; w < attempted; w++) {
      int size = batchSizes.get(cycle).get(w);
      int present = 0;
      for (int j = 0; j < size; j++) {
        byte[] v = db.get(key(cycle, w, j), b(""));
        if (v != null) {
          present++;
          if (!new String(v, StandardCharsets.UTF_8).startsWith(cycle + "/" + w + "/" + j + "/")) {
            fail(context + ": wrong value in batch " + w);
          }
        }
      }
      if (present != 0 && present != size) {
        fail(context + ": batch " + w + " of cycle " + cycle + " half there: " + present + "/" + size);
      }
      if (present == 0) {
        gap = true;
      } else if (gap) {
        fail(context + ": batch " + w + " of cycle " + cycle + " survived after a lost one");
      } else {
        kept = w + 1;
      }
    }
    return kept;
  }

  static byte[] key(int cycle, int batch, int j) {
    return b("c" + cycle + "-b" + batch + "-" + j);
  }

  private static byte[] value(int cycle, int batch, int j, Random random) {
    return b(cycle + "/" + batch + "/" + j + "/" + "v".repeat(random.nextInt(200)));
  }

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
