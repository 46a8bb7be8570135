package dev.strata.kafka;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store restoring from its changelog is killed with SIGKILL between and during batches ({@link
 * RestoringChild}). Opened again, it must hold exactly the changelog up to the offset it records:
 * never an offset ahead of its data (a batch and its offset are one write), never data ahead of its
 * offset, and no acknowledged batch lost (each is in the log when restoreBatch returns), so the
 * restore resumes after the last batch it holds and replays none twice.
 */
class RestoreKillTest {
  @TempDir Path dir;

  @Test
  void aStoreKilledMidRestore_holdsExactlyTheChangelogUpToItsOffset() throws Exception {
    Path state = dir.resolve("state");
    Path output = dir.resolve("child.log");
    Process child = new ProcessBuilder(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
        "-cp", System.getProperty("java.class.path"), RestoringChild.class.getName(),
        state.toString())
        .redirectErrorStream(true).redirectOutput(output.toFile()).start();
    long acknowledged;
    try {
      // Past several memtables of the store's small options: flushed tables and a live log.
      acknowledged = awaitAcknowledged(output, child, 60L * RestoringChild.BATCH);
    } finally {
      child.destroyForcibly(); // SIGKILL: no close, no flush
      child.waitFor(30, TimeUnit.SECONDS);
    }
    assertEquals(128 + 9, child.exitValue(), "the child died of SIGKILL");

    KeyValueStore<Bytes, byte[]> store = Stores.open(state, RestoringChild.STORE);
    try {
      Long offset = store.committedOffset(new TopicPartition(RestoringChild.CHANGELOG, 0));
      assertNotNull(offset, "no offset after " + acknowledged + " acknowledged");
      assertTrue(offset >= acknowledged,
          "offset " + offset + " behind the acknowledged " + acknowledged);
      assertEquals(RestoringChild.BATCH - 1, offset % RestoringChild.BATCH, "a batch split");
      // Each key's value: the last record of that key at or before the offset, nothing later.
      for (long k = 0; k < RestoringChild.KEYS; k++) {
        long last = offset - Math.floorMod(offset - k, RestoringChild.KEYS);
        byte[] expected = last < 0 ? null : ByteBuffer.allocate(Long.BYTES).putLong(last).array();
        assertArrayEquals(expected, store.get(Bytes.wrap(RestoringChild.key(k))),
            "key " + k + " at offset " + offset);
      }
    } finally {
      store.close();
    }
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
