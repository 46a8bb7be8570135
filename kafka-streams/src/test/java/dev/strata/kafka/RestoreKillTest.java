package dev.strata.kafka;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store restoring from its changelog is killed with SIGKILL between and during batches ({@link
 * RestoringChild}). Opened again, it must hold exactly the changelog up to the offset it records:
 * never an offset ahead of its data (a batch and its offset are one write), never data ahead of its
 * offset, and whole batches only, so the restore resumes after the last batch it holds and replays
 * none twice. Restored batches skip the log (the restore's bulk load), so the kill may take the
 * latest acknowledged ones, those not yet flushed; the flushed ones stay.
 */
class RestoreKillTest {
  private static final TopicPartition CHANGELOG = new TopicPartition(RestoringChild.CHANGELOG, 0);

  @TempDir Path dir;

  @Test
  void aStoreKilledMidRestore_holdsExactlyTheChangelogUpToItsOffset() throws Exception {
    Path state = dir.resolve("state");
    killMidRestore(state);
    KeyValueStore<Bytes, byte[]> store = Stores.open(state, RestoringChild.STORE);
    try {
      // Past several memtables: writes stop while two frozen ones wait, so some were flushed.
      long offset = checkUpToOffset(store, RestoringChild.BATCH - 1);
      assertEquals(RestoringChild.BATCH - 1, offset % RestoringChild.BATCH, "a batch split");
    } finally {
      store.close();
    }
  }

  /**
   * The restore interrupted by the kill resumes, as Kafka Streams' changelog reader would, from the
   * offset after the store's committed one, and ends holding the whole changelog it was fed.
   */
  @Test
  void aKilledRestore_resumesAfterItsOffset_andEndsWithTheWholeChangelog() throws Exception {
    Path state = dir.resolve("state");
    killMidRestore(state);
    Stores.Restoring r =
        Stores.openRestoring(state, RestoringChild.STORE, StreamsConfig.AT_LEAST_ONCE);
    long end;
    try {
      long from = r.store().committedOffset(CHANGELOG) + 1;
      end = from + 30L * RestoringChild.BATCH - 1;
      List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
      for (long i = from; i <= end; i++) {
        records.add(RestoringChild.record(i));
        if (records.size() == RestoringChild.BATCH) {
          r.restore().restoreBatch(records);
          records.clear();
        }
      }
    } finally {
      r.store().close();
    }
    KeyValueStore<Bytes, byte[]> store = Stores.open(state, RestoringChild.STORE);
    try {
      assertEquals(end, checkUpToOffset(store, end));
    } finally {
      store.close();
    }
  }

  /**
   * The first write from processing ends the restore's bulk load, which flushes the restored
   * batches first: a kill after it keeps every restored batch and the processing write.
   */
  @Test
  void aRestoreEndedByProcessing_survivesAKillWhole() throws Exception {
    killAfterRestoring("put", store ->
        assertArrayEquals(new byte[] {1}, store.get(Bytes.wrap(RestoringChild.PROCESSED))));
  }

  /** The store's flush() during a restore flushes the restored batches, which are in no log. */
  @Test
  void aFlushDuringARestore_makesEveryBatchSurviveAKill() throws Exception {
    killAfterRestoring("flush", store -> {});
  }

  /**
   * Runs a child that restores 20 batches into the state directory, then puts a key from
   * processing ({@code put}) or calls the store's flush() ({@code flush}), and kills it once that
   * returned; the store, reopened, must hold every batch, and pass {@code check}.
   */
  private void killAfterRestoring(String then, Consumer<KeyValueStore<Bytes, byte[]>> check)
      throws Exception {
    Path state = dir.resolve("state");
    long batches = 20;
    Path output = dir.resolve("child.log");
    Process child = startChild(output, state.toString(), Long.toString(batches), then);
    try {
      long deadline = System.currentTimeMillis() + 90_000;
      while (!Files.readString(output).contains("processed\n")) {
        assertTrue(child.isAlive(), () -> "the child died: " + read(output));
        assertTrue(System.currentTimeMillis() < deadline, () -> "too slow: " + read(output));
        Thread.sleep(5);
      }
    } finally {
      child.destroyForcibly(); // SIGKILL: no close, no flush
      child.waitFor(30, TimeUnit.SECONDS);
    }
    assertEquals(128 + 9, child.exitValue(), "the child died of SIGKILL");
    KeyValueStore<Bytes, byte[]> store = Stores.open(state, RestoringChild.STORE);
    try {
      assertEquals(batches * RestoringChild.BATCH - 1, checkUpToOffset(store, 0));
      check.accept(store);
    } finally {
      store.close();
    }
  }

  /**
   * Checks that {@code store} holds exactly the changelog up to its offset, which is at least
   * {@code atLeast}; returns the offset.
   */
  private static long checkUpToOffset(KeyValueStore<Bytes, byte[]> store, long atLeast) {
    Long offset = store.committedOffset(CHANGELOG);
    assertNotNull(offset, "no offset after " + atLeast + " acknowledged");
    assertTrue(offset >= atLeast, "offset " + offset + " behind the acknowledged " + atLeast);
    // Each key's value: the last record of that key at or before the offset, nothing later.
    for (long k = 0; k < RestoringChild.KEYS; k++) {
      long last = offset - Math.floorMod(offset - k, RestoringChild.KEYS);
      byte[] expected = last < 0 ? null : ByteBuffer.allocate(Long.BYTES).putLong(last).array();
      assertArrayEquals(expected, store.get(Bytes.wrap(RestoringChild.key(k))),
          "key " + k + " at offset " + offset);
    }
    return offset;
  }

  /** Runs a restoring child into {@code state} and kills it. */
  private void killMidRestore(Path state) throws Exception {
    Path output = dir.resolve("child.log");
    Process child = startChild(output, state.toString());
    try {
      // Past several memtables of the store's small options: flushed tables and a live memtable.
      awaitAcknowledged(output, child, 60L * RestoringChild.BATCH);
    } finally {
      child.destroyForcibly(); // SIGKILL: no close, no flush
      child.waitFor(30, TimeUnit.SECONDS);
    }
    assertEquals(128 + 9, child.exitValue(), "the child died of SIGKILL");
  }

  /** Starts a {@link RestoringChild} with {@code args}, its output to {@code output}. */
  private static Process startChild(Path output, String... args) throws IOException {
    List<String> cmd = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
        "-cp", System.getProperty("java.class.path"), RestoringChild.class.getName()));
    cmd.addAll(List.of(args));
    return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(output.toFile())
        .start();
  }

  /** The offset of the last batch the child acknowledged once it is at least {@code atLeast}. */
  private static long awaitAcknowledged(Path output, Process child, long atLeast)
      throws Exception {
    long deadline = System.currentTimeMillis() + 90_000;
    while (System.currentTimeMillis() < deadline) {
      assertTrue(child.isAlive(), () -> "the child died: " + read(output));
      List<String> lines = Files.readAllLines(output);
      // The last line may be half written; the one before it is whole.
      for (int i = lines.size() - 2; i >= 0; i--) {
        if (lines.get(i).matches("\\d+")) {
          long offset = Long.parseLong(lines.get(i));
          if (offset >= atLeast) {
            return offset;
          }
          break;
        }
      }
      Thread.sleep(5);
    }
    throw new AssertionError("the child restored too little in 90 s: " + read(output));
  }

  private static String read(Path output) {
    try {
      return Files.readString(output);
    } catch (java.io.IOException e) {
      return e.toString();
    }
  }
}
