package dev.strata.engine.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.sstable.key.ValueKind;
import org.junit.jupiter.api.Test;

final class LimitsTest {

  private static final byte[] ONE = {1};

  @Test
  void keyChecks_nameTheKeyArgumentAndTheRowLimit() {
    NullPointerException npe =
        assertThrows(NullPointerException.class, () -> Limits.checkKey(null));
    assertEquals("key must not be null", npe.getMessage());
    IllegalArgumentException iae =
        assertThrows(IllegalArgumentException.class, () -> Limits.checkKey(new byte[0]));
    assertTrue(iae.getMessage().startsWith("key must be 1 to MAX_ROW_LENGTH"), iae.getMessage());
    assertThrows(NullPointerException.class, () -> Limits.checkKeyPut(ONE, null));
    assertThrows(
        IllegalArgumentException.class,
        () -> Limits.checkKeyPut(ONE, new byte[Limits.MAX_VALUE_LENGTH + 1]));
    Limits.checkKeyPut(new byte[Limits.MAX_ROW_LENGTH], new byte[0]);
  }

  @Test
  void checkBatchGrowth_allowsExactlyMaxBatchBytes() {
    Limits.checkBatchGrowth(Limits.MAX_BATCH_BYTES - 10, 10);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> Limits.checkBatchGrowth(Limits.MAX_BATCH_BYTES - 10, 11));
    assertTrue(e.getMessage().contains("MAX_BATCH_BYTES"), e.getMessage());
  }

  @Test
  void mutation_equalityComparesBytesAndKeysCarryTheSequence() {
    assertEquals(
        Mutation.put(new byte[] {1}, new byte[] {2}, new byte[] {3}),
        Mutation.put(new byte[] {1}, new byte[] {2}, new byte[] {3}));
    assertEquals(Mutation.deleteRow(ONE).hashCode(), Mutation.deleteRow(new byte[] {1}).hashCode());
    assertEquals(ValueKind.DELETE_ROW, Mutation.deleteRow(ONE).key(9).kind());
    assertEquals(9, Mutation.delete(ONE, ONE).key(9).sequence());
    assertEquals(0, Mutation.deleteRow(ONE).column().length);
  }
}
