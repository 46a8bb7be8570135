package dev.strata.engine.manifest;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import dev.strata.engine.CorruptionException;
import dev.strata.engine.fs.FaultyFileLayer;
import dev.strata.engine.fs.FileNames;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.ValueKind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A manifest append whose write returned but whose fsync never did, then a power loss: whatever
 * {@link FaultyFileLayer} keeps of the unforced record, the manifest reads as the state before the
 * append or the state after it, never as corruption. {@code PowerLossProperties} reaches this only
 * by timing (a flush or compaction appends to the manifest, and another thread's write is the one
 * the power loss strikes before the append's fsync); here it is every trial. The appended record's
 * place in its sectors varies with the forced edits before it, its length with its keys.
 *
 * <p>Seeded: the seed is printed, and {@code -Dstrata.seed=N} replays a run.
 */
final class ManifestPowerLossProperties {
  private static final int TRIALS = 500;

  @TempDir Path root;

  @Test
  void anUnforcedAppend_readsAsTheStateBeforeOrAfterIt_afterAnyPowerLoss() throws IOException {
    long seed = Long.getLong("strata.seed", System.nanoTime());
    System.out.println("ManifestPowerLossProperties seed=" + seed);
    Random random = new Random(seed);
    for (int trial = 0; trial < TRIALS; trial++) {
      Path dir = Files.createDirectory(root.resolve("trial" + trial));
      FaultyFileLayer files = new FaultyFileLayer();
      Manifest before = ManifestLogTest.goldenV5Snapshot();
      Manifest after;
      try (ManifestLog log = new ManifestLog(dir, files)) {
        log.rewrite(before);
        for (int i = random.nextInt(40); i > 0; i--) {
          SyncedLog forced = new SyncedLog(before.logNumber(), 1 + random.nextInt(1 << 20));
          ManifestEdit edit =
              new ManifestEdit(before.nextFileNumber(), before.lastSequence(), before.logNumber(),
                  List.of(), List.of(), List.of(forced));
          before = before.apply(edit);
          log.write(edit, before);
        }
        ManifestEdit flush = flushOf(before, random);
        after = before.apply(flush);
        files.failForces(FaultyFileLayer::isManifest);
        ManifestWriteException e =
            assertThrows(ManifestWriteException.class, () -> log.write(flush, after));
        if (!e.mayBeDurable()) {
          fail("seed=" + seed + " trial=" + trial + ": the append's write failed, not its fsync");
        }
      }
      List<String> damage = files.powerLoss(random);
      String context = "seed=" + seed + " trial=" + trial + " damage=" + damage;
      Manifest read;
      try {
        read = ManifestReader.read(FileNames.manifest(dir));
      } catch (CorruptionException e) {
        throw new AssertionError(context + ": a power loss made the manifest corrupt", e);
      }
      if (!read.equals(before) && !read.equals(after)) {
        fail(context + ": read a state that is neither the one before the append nor after it");
      }
    }
  }

  /** A flush's edit after {@code state}: one table whose keys make the record 60 to 3,100 bytes. */
  private static ManifestEdit flushOf(Manifest state, Random random) {
    long number = state.nextFileNumber();
    long sequence = state.lastSequence() + 1;
    FileMetadata table =
        new FileMetadata(number, 0, 1, 1, sequence, sequence,
            key("w".repeat(1 + random.nextInt(1500)), sequence),
            key("x".repeat(1 + random.nextInt(1500)), sequence), 8);
    return new ManifestEdit(number + 1, sequence, state.logNumber(), List.of(), List.of(table));
  }

  private static InternalKey key(String row, long sequence) {
    return new InternalKey(row.getBytes(StandardCharsets.UTF_8), new byte[0], sequence,
        ValueKind.PUT);
  }
}
