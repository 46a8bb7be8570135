package dev.strata.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.engine.WriteBatch;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** When a commit writes the offsets: a new partition, an offset becoming known, 10,000 records. */
class ChangelogOffsetsTest {
  private static final TopicPartition CHANGELOG = new TopicPartition("app-store-changelog", 0);

  /** Applies {@code offset} as a commit; whether the commit had to write the offsets. */
  private static boolean commitWrites(ChangelogOffsets offsets, long offset) {
    WriteBatch batch = new WriteBatch();
    offsets.apply(Map.of(CHANGELOG, offset), batch);
    return !batch.isEmpty();
  }

  @Test
  void aCommitWritesTheOffsets_forANewPartition_aKnownOffset_orTenThousandRecords() {
    ChangelogOffsets offsets = new ChangelogOffsets();
    assertTrue(commitWrites(offsets, -4), "a new partition, its offset unknown (Kafka's -4)");
    assertFalse(commitWrites(offsets, -4));
    assertTrue(commitWrites(offsets, 3), "the offset became known");
    assertFalse(commitWrites(offsets, 3 + ChangelogOffsets.WRITE_THRESHOLD - 1));
    assertTrue(commitWrites(offsets, 3 + ChangelogOffsets.WRITE_THRESHOLD));
    assertEquals(3 + ChangelogOffsets.WRITE_THRESHOLD, offsets.get(CHANGELOG));
  }
}
