package dev.strata.engine.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.strata.engine.version.Version;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** A row range's share of a tree's row range, by the rows' first bytes after their common prefix. */
final class RowSpaceTest {
  private static byte[] row(String s) {
    return s.getBytes(StandardCharsets.ISO_8859_1);
  }

  private static double share(RowSpace space, String from, String to) {
    return space.share(row(from), row(to));
  }

  @Test
  void share_isTheFractionOfTheTreesRangeBetweenTheRows() {
    RowSpace space = RowSpace.between(row("a"), row("z"));
    assertEquals(1, share(space, "a", "z"), 1e-12);
    assertEquals(12 / 25.0, share(space, "a", "m"), 1e-12);
    assertEquals(0, share(space, "k", "k"), 1e-12);
    // Bytes past the first that differ place a row within its first byte's step.
    assertEquals(0.5 / 25, share(space, "k", "k\u0080"), 1e-12);
  }

  @Test
  void share_skipsTheCommonPrefix_andReadsEightBytesAfterIt() {
    RowSpace space = RowSpace.between(row("user:a"), row("user:z"));
    assertEquals(12 / 25.0, share(space, "user:a", "user:m"), 1e-12);
    RowSpace prefixOfTheOther = RowSpace.between(row("a"), row("ab"));
    assertEquals(1, share(prefixOfTheOther, "a", "ab"), 1e-12);
    assertEquals(0.5, share(prefixOfTheOther, "a", "a1"), 1e-12); // '1' is 0x31, 'b' 0x62
    // The ninth byte after the prefix is past what places a row.
    RowSpace wide = RowSpace.between(row("\u0000"), row("\u00ff\u00ff\u00ff\u00ff\u00ff\u00ff\u00ff\u00ff"));
    assertEquals(0, share(wide, "\u0001\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0001",
        "\u0001\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u00ff"), 1e-12);
  }

  @Test
  void aTreeWithoutMeasurableWidth_countsEveryTableWhole_andAnEmptyTreeNone() {
    RowSpace same = RowSpace.between(row("k"), row("k"));
    assertEquals(1, share(same, "k", "k"), 1e-12);
    RowSpace zeros = RowSpace.between(row("a"), row("a\u0000"));
    assertEquals(1, share(zeros, "a", "a"), 1e-12);
    RowSpace empty = RowSpace.of(Version.of(TableEntries.emptyLevels()));
    assertEquals(0, share(empty, "a", "z"), 1e-12);
  }
}
