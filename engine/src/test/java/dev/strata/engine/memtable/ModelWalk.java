package dev.strata.engine.memtable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.sstable.key.InternalKey;
import java.util.Map;
import java.util.NavigableMap;

/** Checks a memtable's iteration against a model of its entries. */
final class ModelWalk {
  private ModelWalk() {}

  /**
   * Walks {@code it} from its first entry: exactly the model's keys in order, each with its value.
   */
  static void assertWalksAs(NavigableMap<InternalKey, byte[]> model, MemTableIterator it,
      String what) {
    it.seekToFirst();
    for (Map.Entry<InternalKey, byte[]> e : model.entrySet()) {
      assertTrue(it.isValid(), what);
      assertEquals(0, InternalKey.ORDER.compare(e.getKey(), it.key()), what);
      assertArrayEquals(e.getValue(), it.value(), what);
      it.next();
    }
    assertFalse(it.isValid(), what);
  }
}
