package dev.strata.engine.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.engine.fs.FileNames.FileType;
import dev.strata.engine.fs.FileNames.ParsedName;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class FileNamesTest {

  private static final Path DIR = Path.of("/db");

  @TempDir Path tmp;

  @Test
  void list_returnsOnlyOurFiles_withWhatTheirNamesSay() throws Exception {
    Files.createFile(FileNames.table(tmp, 7));
    Files.createFile(FileNames.log(tmp, 8));
    Files.createFile(FileNames.manifest(tmp));
    Files.createFile(tmp.resolve("notes.txt"));
    Files.createFile(tmp.resolve("0000007.sst")); // not canonical
    Files.createDirectory(tmp.resolve("sub"));
    Map<Path, ParsedName> listed = new HashMap<>();
    for (FileNames.DbFile f : FileNames.list(tmp)) {
      listed.put(f.path().getFileName(), f.name());
    }
    assertEquals(
        Map.of(
            Path.of("000007.sst"), new ParsedName(FileType.TABLE, 7),
            Path.of("000008.log"), new ParsedName(FileType.LOG, 8),
            Path.of("MANIFEST"), new ParsedName(FileType.MANIFEST, FileNames.NO_NUMBER)),
        listed);
  }

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
