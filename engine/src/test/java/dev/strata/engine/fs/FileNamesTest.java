package dev.strata.engine.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.engine.fs.FileNames.FileType;
import dev.strata.engine.fs.FileNames.ParsedName;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

final class FileNamesTest {

  private static final Path DIR = Path.of("/db");

  @Test
  void names_useSixDigitsOrMore() {
    assertEquals(Path.of("/db/000012.sst"), FileNames.table(DIR, 12));
    assertEquals(Path.of("/db/000013.log"), FileNames.log(DIR, 13));
    assertEquals(Path.of("/db/000014.tmp"), FileNames.temp(DIR, 14));
    assertEquals(Path.of("/db/1234567.sst"), FileNames.table(DIR, 1234567));
    assertEquals(Path.of("/db/MANIFEST"), FileNames.manifest(DIR));
    assertEquals(Path.of("/db/MANIFEST.tmp"), FileNames.manifestTemp(DIR));
    assertEquals(Path.of("/db/LOCK"), FileNames.lock(DIR));
    assertThrows(IllegalArgumentException.class, () -> FileNames.table(DIR, -1));
  }

  @Test
  void parse_inversesTheNames() {
    for (long n : new long[] {0, 1, 12, 999_999, 1_000_000, Long.MAX_VALUE}) {
      assertEquals(parsed(FileType.TABLE, n), FileNames.parse(FileNames.table(DIR, n)));
      assertEquals(parsed(FileType.LOG, n), FileNames.parse(FileNames.log(DIR, n)));
      assertEquals(parsed(FileType.TEMP, n), FileNames.parse(FileNames.temp(DIR, n)));
    }
    assertEquals(parsed(FileType.MANIFEST, -1), FileNames.parse(FileNames.manifest(DIR)));
    assertEquals(parsed(FileType.TEMP, -1), FileNames.parse(FileNames.manifestTemp(DIR)));
    assertEquals(parsed(FileType.LOCK, -1), FileNames.parse(FileNames.lock(DIR)));
  }

  @Test
  void parse_rejectsNamesItDoesNotProduce() {
    for (String name :
        new String[] {
          "12.sst",
          "0000012.sst",
          "-00001.sst",
          "00001a.log",
          ".sst",
          "000001.SST",
          "000001.sst.bak",
          "MANIFEST-000001",
          "CURRENT",
          "LOCK2",
          "99999999999999999999.log",
          "+00001.log"
        }) {
      assertTrue(FileNames.parse(name).isEmpty(), name);
    }
  }

  private static Optional<ParsedName> parsed(FileType type, long number) {
    return Optional.of(new ParsedName(type, number));
  }
}
