package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

final class PublicTypesTest {

  @Test
  void cell_equalityComparesBytes() {
    Cell a = new Cell(new byte[] {1}, new byte[] {2}, new byte[] {3});
    Cell b = new Cell(new byte[] {1}, new byte[] {2}, new byte[] {3});
    assertEquals(a, b);
    assertEquals(a.hashCode(), b.hashCode());
    assertNotEquals(a, new Cell(new byte[] {1}, new byte[] {2}, new byte[] {4}));
    assertNotEquals(a, new Cell(new byte[] {1}, new byte[0], new byte[] {3}));
  }

  @Test
  void corruptionException_namesFileAndOffset() {
    Path file = Path.of("/data/db/000012.log");
    CorruptionException e = new CorruptionException(file, 4096, "bad crc %08x", 0xdeadbeef);
    assertTrue(e instanceof IOException);
    assertEquals("corrupt /data/db/000012.log at offset 4096: bad crc deadbeef", e.getMessage());
    assertEquals(file, e.file());
    assertEquals(4096, e.offset());

    IOException cause = new IOException("table 7 at offset 12: block crc");
    CorruptionException wrapped = new CorruptionException(cause.getMessage(), cause);
    assertSame(cause, wrapped.getCause());
    assertNull(wrapped.file());
    assertEquals(CorruptionException.UNKNOWN_OFFSET, wrapped.offset());

    CorruptionException withCause = new CorruptionException(file, 7, cause, "parse %s", "failed");
    assertSame(cause, withCause.getCause());
    assertTrue(withCause.getMessage().contains("offset 7: parse failed"));
  }

  @Test
  void formatVersionException_saysTooOldOrTooNew() {
    Path file = Path.of("MANIFEST");
    assertTrue(new FormatVersionException(file, 9, 1, 2).getMessage().contains("too new"));
    assertTrue(new FormatVersionException(file, 0, 1, 2).getMessage().contains("too old"));
    assertEquals(9, new FormatVersionException(file, 9, 1, 2).version());
  }

  @Test
  void dbStats_hasTheApiAccessorsInOrder() {
    List<String> names =
        Arrays.stream(DbStats.class.getRecordComponents()).map(RecordComponent::getName).toList();
    assertEquals(
        List.of(
            "gets",
            "tablesConsulted",
            "tablesSkippedByBloom",
            "bloomFalsePositives",
            "dataBlocksRead",
            "dataBlockCacheHits",
            "filterBlocksRead",
            "filterBlockCacheHits",
            "bytesReadFromDisk",
            "blockCacheBytes",
            "tableCount",
            "filterBytesOnDisk"),
        names.subList(0, 12)); // API.md's accessors first; later issues add more after them
    // Every counter is a long: the API's twelve, and those of each group after them.
    for (RecordComponent c : DbStats.class.getRecordComponents()) {
      if (names.indexOf(c.getName()) < 12) {
        assertEquals(long.class, c.getType(), c.getName());
      } else {
        assertTrue(c.getType().isRecord(), c.getName() + " is a group");
        for (RecordComponent counter : c.getType().getRecordComponents()) {
          assertEquals(long.class, counter.getType(), c.getName() + "." + counter.getName());
        }
      }
    }
    assertEquals(0, DbStats.ZERO.gets());
  }

  @Test
  void enums_haveTheApiConstantsInOrder() {
    assertEquals(
        List.of(BloomType.NONE, BloomType.ROW, BloomType.ROWCOL), List.of(BloomType.values()));
    assertEquals(List.of(Compression.NONE, Compression.LZ4), List.of(Compression.values()));
  }
}
