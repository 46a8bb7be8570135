package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.strata.engine.fs.FaultyFileLayer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Commit markers under power loss at random points, many cycles on one database, as a changelog
 * restore uses them: batch i of a cycle puts its rows (or nothing: a batch of markers only) and
 * sets the marker {@code applied} to i, sets or removes the marker {@code even} by i's parity, and
 * sets the marker {@code tens} when i is a multiple of 10 (a marker that the replay of later
 * batches does not overwrite), and a marker of its own, removing that of batch i - 50 (no later
 * batch sets it, so one recorded ahead of its data cannot hide behind the replay of later ones).
 * Small memtables make flushes, log deletions and manifest rewrites frequent. After the power goes
 * (through a {@link FaultyFileLayer}, as in {@link PowerLossProperties}) the reopened database's
 * {@code applied} marker must name exactly the last batch whose rows survived: never a batch whose
 * rows are missing (ahead of the data), never an earlier one when later rows are there (behind
 * it); {@code even}, {@code tens} and the batches' own markers must agree with it; and it must be at least the last batch a force vouched
 * for (every acknowledged batch under {@code syncWrites}, else those before a returned flush).
 *
 * <p>Seeded: the seed is printed, and {@code -Dstrata.seed=N} replays a run.
 */
final class CommitMarkerPowerLossProperties {
  private static final int CYCLES = 24;
  private static final byte[] APPLIED = b("applied");
  private static final byte[] EVEN = b("even");
  private static final byte[] TENS = b("tens");
  /** How many of the latest batches' own markers a cycle keeps. */
  private static final int WINDOW = 50;
  private static final byte[] E = new byte[0];

  @TempDir Path dir;

  @Test
  void powerLoss_neverLeavesAMarkerAheadOfOrBehindItsBatchsData_norLosesAForcedOne()
      throws Exception {
    long seed = Long.getLong("strata.seed", System.nanoTime());
    System.out.println("CommitMarkerPowerLossProperties seed=" + seed);
    Random random = new Random(seed);
    String recovered = null; // the applied marker the last reopen found: "cycle/batch"
    for (int cycle = 0; cycle < CYCLES; cycle++) {
      FaultyFileLayer files = new FaultyFileLayer();
      boolean sync = random.nextBoolean();
      DbOptions options =
          DbOptions.builder()
              .syncWrites(sync)
              .memtableBytes(512 + random.nextInt(4096))
              .autoCompaction(random.nextBoolean())
              .level0CompactionTrigger(2)
              .build();
      if (random.nextInt(3) == 0) {
        files.powerLossAfterWrites(random.nextInt(8), FaultyFileLayer::isManifest);
      } else {
        files.powerLossAfterWrites(random.nextInt(150));
      }
      List<Boolean> hasData = new ArrayList<>();
      int durable = -1; // the last batch a force vouched for
      String context = "seed=" + seed + " cycle=" + cycle + " options=" + options;
      try (Db db = Db.open(dir, options, EngineHooks.NONE.withFileLayer(files))) {
        assertEquals(recovered, marker(db, APPLIED), context + ": markers changed across opens");
        // A slow flush, so that batches land in the next memtable while the frozen one is written:
        // its install must record the markers of its own batches, not of those.
        db.seams().beforeEachFlush(() -> LockSupport.parkNanos(2_000_000));
        for (int i = 0; i < 1000; i++) {
          boolean data = random.nextInt(5) != 0;
          WriteBatch batch = new WriteBatch();
          if (data) {
            for (int j = 0; j < 1 + random.nextInt(3); j++) {
              batch.put(row(cycle, i, j), E, b("v".repeat(random.nextInt(100))));
            }
          }
          batch.putCommitMarker(APPLIED, b(cycle + "/" + i));
          // A marker of its own per batch, which no later batch sets, so the replay of later
          // batches cannot hide one recorded ahead of its data; the last WINDOW stay.
          batch.putCommitMarker(own(cycle, i), b("1"));
          if (i >= WINDOW) {
            batch.deleteCommitMarker(own(cycle, i - WINDOW));
          }
          if (i == 0) {
            for (byte[] name : db.commitMarkers().keySet()) {
              if (name[0] == 'b') { // an earlier cycle's
                batch.deleteCommitMarker(name);
              }
            }
          }
          if (i % 10 == 0) { // a marker most batches leave alone: replay cannot mask it
            batch.putCommitMarker(TENS, b(cycle + "/" + i));
          }
          if (i % 2 == 0) {
            batch.putCommitMarker(EVEN, b(cycle + "/" + i));
          } else {
            batch.deleteCommitMarker(EVEN);
          }
          hasData.add(data);
          db.write(batch);
          if (sync) {
            durable = i;
          }
          if (random.nextInt(30) == 0) {
            db.flush();
            durable = i;
          }
        }
      } catch (IOException | IllegalStateException e) {
        if (!files.crashed()) {
          throw new AssertionError(context + ": failed without a power loss", e);
        }
      }
      List<String> damage = files.powerLoss(random);
      context += " durable=" + durable + " damage=" + damage;
      try (Db db = Db.open(dir, options)) {
        String applied = marker(db, APPLIED);
        int last = -1; // the last batch of this cycle the marker says is applied
        if (applied != null && applied.startsWith(cycle + "/")) {
          last = Integer.parseInt(applied.substring(applied.indexOf('/') + 1));
        } else if (!java.util.Objects.equals(applied, recovered)) {
          fail(context + ": marker " + applied + " is neither this cycle's nor the last one "
              + recovered);
        }
        assertTrue(last >= durable, context + ": marker at batch " + last + ", but " + durable
            + " was forced");
        for (int i = 0; i < hasData.size(); i++) {
          if (hasData.get(i) && present(db, cycle, i) != (i <= last)) {
            fail(context + ": marker at batch " + last + " but batch " + i + "'s rows are "
                + (i <= last ? "missing (marker ahead of the data)" : "there (marker behind)"));
          }
        }
        String even = marker(db, EVEN);
        if (last >= 0) {
          String expected = last % 2 == 0 ? cycle + "/" + last : null;
          assertEquals(expected, even, context + ": the even marker disagrees with applied");
          assertEquals(cycle + "/" + (last - last % 10), marker(db, TENS),
              context + ": the tens marker disagrees with applied");
          for (int i = 0; i < hasData.size(); i++) {
            boolean expectedOwn = i <= last && i > last - WINDOW;
            assertEquals(expectedOwn, db.commitMarker(own(cycle, i)) != null,
                context + ": batch " + i + "'s own marker, with applied at " + last);
          }
          String mine = "b/" + cycle + "/";
          long others = db.commitMarkers().keySet().stream()
              .filter(n -> n[0] == 'b' && !new String(n, StandardCharsets.UTF_8).startsWith(mine))
              .count();
          assertEquals(0, others, context + ": earlier cycles' own markers are left");
        }
        recovered = applied;
      }
    }
  }

  private static boolean present(Db db, int cycle, int batch) throws IOException {
    return db.get(row(cycle, batch, 0), E) != null;
  }

  private static String marker(Db db, byte[] name) {
    byte[] v = db.commitMarker(name);
    return v == null ? null : new String(v, StandardCharsets.UTF_8);
  }

  private static byte[] own(int cycle, int batch) {
    return b("b/" + cycle + "/" + batch);
  }

  private static byte[] row(int cycle, int batch, int j) {
    return b("c" + cycle + "-b" + batch + "-" + j);
  }

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
