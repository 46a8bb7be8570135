package dev.strata.sstable;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.sstable.block.BlockCompression;
import dev.strata.sstable.block.BlockType;
import dev.strata.sstable.format.SstableFormat;
import dev.strata.sstable.key.EncodedKeys;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.ValueKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class TableWriterTest {
  private static final byte[] EMPTY = new byte[0];

  @TempDir Path dir;

  private static InternalKey key(String row, long seq) {
    return new InternalKey(row.getBytes(UTF_8), EMPTY, seq, ValueKind.PUT);
  }

  @Test
  void add_outOfOrderOrDuplicate_isRejectedAndChangesNothing() throws IOException {
    Path file = dir.resolve("000001.sst");
    try (TableWriter w = TableWriter.create(file, TableOptions.defaults())) {
      w.add(key("b", 5), EMPTY);
      assertThrows(IllegalArgumentException.class, () -> w.add(key("a", 9), EMPTY));
      assertThrows(IllegalArgumentException.class, () -> w.add(key("b", 5), EMPTY));
      assertThrows(IllegalArgumentException.class, () -> w.add(key("b", 6), EMPTY)); // newer sorts first
      w.add(key("b", 4), EMPTY);
      assertEquals(2, w.entryCount());
      assertEquals(2, w.finish().entryCount());
    }
    assertTrue(Files.exists(file));
  }

  @Test
  void add_rejectsOversizedRowAndValue() throws IOException {
    try (TableWriter w = TableWriter.create(dir.resolve("000001.sst"), TableOptions.defaults())) {
      InternalKey longRow = new InternalKey(new byte[SstableFormat.MAX_ROW_LENGTH + 1], EMPTY, 1, ValueKind.PUT);
      assertThrows(IllegalArgumentException.class, () -> w.add(longRow, EMPTY));
      assertThrows(NullPointerException.class, () -> w.add(key("a", 1), null));
      InternalKey rowTombstoneWithColumn = new InternalKey("a".getBytes(UTF_8), "c".getBytes(UTF_8), 1, ValueKind.DELETE_ROW);
      assertThrows(IllegalArgumentException.class, () -> w.add(rowTombstoneWithColumn, EMPTY));
    }
  }

  @Test
  void finish_twiceOrAddAfter_isIllegalState() throws IOException {
    try (TableWriter w = TableWriter.create(dir.resolve("000001.sst"), TableOptions.defaults())) {
      w.add(key("a", 1), EMPTY);
      w.finish();
      assertThrows(IllegalStateException.class, w::finish);
      assertThrows(IllegalStateException.class, () -> w.add(key("b", 1), EMPTY));
    }
  }

  @Test
  void finish_withoutEntries_isIllegalState_andCloseDeletesTheFile() throws IOException {
    Path file = dir.resolve("000001.sst");
    try (TableWriter w = TableWriter.create(file, TableOptions.defaults())) {
      assertThrows(IllegalStateException.class, w::finish);
    }
    assertFalse(Files.exists(file));
  }

  @Test
  void abort_deletesThePartialFile_andIsIdempotent() throws IOException {
    Path file = dir.resolve("000001.sst");
    TableWriter w = TableWriter.create(file, TableOptions.defaults().withBlockSizeBytes(64).withCompression(BlockCompression.NONE));
    for (int i = 0; i < 100; i++) {
      w.add(key("row" + (100 + i), 1), new byte[100]);
    }
    assertTrue(w.estimatedFileSize() > 10_000);
    w.abort();
    w.abort();
    assertFalse(Files.exists(file));
    assertThrows(IllegalStateException.class, () -> w.add(key("z", 1), EMPTY));
  }

  @Test
  void create_refusesAnExistingFile() throws IOException {
    Path file = Files.createFile(dir.resolve("000001.sst"));
    assertThrows(java.nio.file.FileAlreadyExistsException.class, () -> TableWriter.create(file, TableOptions.defaults()));
  }

  @Test
  void options_areValidated() {
    TableOptions d = TableOptions.defaults();
    assertThrows(IllegalArgumentException.class, () -> d.withBlockSizeBytes(10));
    assertThrows(IllegalArgumentException.class, () -> d.withBitsPerKey(0.5));
    assertThrows(IllegalArgumentException.class, () -> d.withBitsPerKey(Double.NaN));
    assertThrows(IllegalArgumentException.class, () -> d.withFilterChunkBytes(63));
    assertThrows(NullPointerException.class, () -> d.withFilterType(null));
    assertEquals(1, d.withBitsPerKey(64).withFilterChunkBytes(64).keysPerChunk() / 8);
  }

  @Test
  void filterChunks_startAt64ByteAlignedOffsets() throws IOException {
    Path file = dir.resolve("000001.sst");
    try (TableWriter w = TableWriter.create(file, TableOptions.defaults().withFilterChunkBytes(64))) {
      for (int i = 0; i < 2000; i++) {
        w.add(key("row" + (10_000 + i), 1), new byte[i % 7]);
      }
      w.finish();
    }
    TableRegions regions = TableRegions.of(file);
    long chunks = regions.regions().stream()
        .filter(r -> r.type() == BlockType.FILTER_CHUNK)
        .peek(r -> assertEquals(0, r.offset() % SstableFormat.FILTER_ALIGNMENT, r.toString()))
        .count();
    assertTrue(chunks > 10);
  }

  /** The raw-bytes entry point rejects what is not an encoded key, and value bounds outside the array. */
  @Test
  void add_encodedViews_rejectsMalformedKeysAndBadValueBounds() throws Exception {
    try (TableWriter w = TableWriter.create(dir.resolve("views.sst"), TableOptions.defaults())) {
      byte[] good = EncodedKeys.encode(key("a", 9));
      byte[] badRowLength = good.clone();
      badRowLength[0] = (byte) 0xff; // a row longer than the key
      assertThrows(IllegalArgumentException.class, () -> w.add(badRowLength, good.length, EMPTY, 0, 0));
      assertThrows(IllegalArgumentException.class, () -> w.add(good, good.length + 1, EMPTY, 0, 0));
      assertThrows(IllegalArgumentException.class, () -> w.add(good, 3, EMPTY, 0, 0));
      assertThrows(IndexOutOfBoundsException.class, () -> w.add(good, good.length, new byte[4], 2, 3));
      w.add(good, good.length, new byte[4], 1, 3);
    }
  }
}
