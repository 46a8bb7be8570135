package dev.strata.bench.dbbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.engine.BloomType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class FillRecordTest {
  @TempDir Path dir;

  @Test
  void aRunWithTheFillsDataSettingsAgrees_whateverItsCacheDurationsAndTree() throws IOException {
    FillRecord.write(config(20_000_000, 100, BloomType.ROW, 64 << 20, Tree.STANDARD));
    assertEquals(List.of(),
        FillRecord.differences(config(20_000_000, 100, BloomType.ROW, 4L << 30, Tree.SMOKE)));
  }

  @Test
  void eachDataSettingThatDiffersIsNamedWithBothValues() throws IOException {
    FillRecord.write(config(20_000_000, 100, BloomType.ROW, 64 << 20, Tree.STANDARD));
    assertEquals(List.of("num: filled with 20000000, this run 2500000",
            "bloom_type: filled with ROW, this run ROWCOL"),
        FillRecord.differences(config(2_500_000, 100, BloomType.ROWCOL, 64 << 20, Tree.STANDARD)));
    assertEquals(List.of("value_bytes: filled with 100, this run 400"),
        FillRecord.differences(config(20_000_000, 400, BloomType.ROW, 64 << 20, Tree.STANDARD)));
  }

  @Test
  void aLaterFillReplacesTheRecord() throws IOException {
    FillRecord.write(config(20_000_000, 100, BloomType.ROW, 64 << 20, Tree.STANDARD));
    FillRecord.write(config(5_000, 100, BloomType.ROW, 64 << 20, Tree.STANDARD));
    assertEquals(List.of(),
        FillRecord.differences(config(5_000, 100, BloomType.ROW, 64 << 20, Tree.STANDARD)));
    try (Stream<Path> files = Files.list(dir)) {
      assertEquals(List.of(FillRecord.FILE), files.map(p -> p.getFileName().toString()).toList(),
          "no temporary file is left");
    }
  }

  @Test
  void noRecord_isNothingToCompare_andAPartialOneNamesWhatItLacks() throws IOException {
    assertNull(FillRecord.differences(config(5_000, 100, BloomType.ROW, 64 << 20, Tree.STANDARD)));
    Files.writeString(dir.resolve(FillRecord.FILE), "num=5000\nseed=20260501\nvalue_bytes=100\n"
        + "compression_ratio=0.5\ncolumns=10\nbits_per_key=10.0\n");
    assertEquals(List.of("bloom_type: filled with (not recorded), this run ROW"),
        FillRecord.differences(config(5_000, 100, BloomType.ROW, 64 << 20, Tree.STANDARD)));
  }

  @Test
  void aGarbledRecord_isAnIOExceptionNamingIt() throws IOException {
    Files.writeString(dir.resolve(FillRecord.FILE), "num=\\u00zz\n");
    IOException e = assertThrows(IOException.class,
        () -> FillRecord.differences(config(5_000, 100, BloomType.ROW, 64 << 20, Tree.STANDARD)));
    assertTrue(e.getMessage().contains(FillRecord.FILE), e.getMessage());
  }

  private RunConfig config(long num, int valueBytes, BloomType bloom, long cacheBytes, Tree tree) {
    return new RunConfig(num, valueBytes, 0.5, 10.0, bloom, cacheBytes, 15, 5, 20260501, 10,
        10, 64, dir, tree, 3600, KeyDistribution.UNIFORM, num);
  }
}
