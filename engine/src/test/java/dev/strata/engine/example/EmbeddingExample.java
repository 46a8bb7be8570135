package dev.strata.engine.example;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.strata.engine.BloomType;
import dev.strata.engine.CellScanner;
import dev.strata.engine.Db;
import dev.strata.engine.DbOptions;
import java.io.IOException;
import java.nio.file.Path;

/** The README's embedding example; {@code ReadmeExampleTest} checks the README quotes it exactly. */
final class EmbeddingExample {
  private EmbeddingExample() {}

  static byte[] bytes(String s) {
    return s.getBytes(UTF_8);
  }

  static void run(Path dir) throws IOException {
    // README-EXAMPLE-START
    try (Db db = Db.open(dir, DbOptions.builder().bloomType(BloomType.ROWCOL).build())) {
      byte[] row = bytes("user:42");
      db.put(row, bytes("name"), bytes("Ada"));
      db.put(row, bytes("lang"), bytes("en"));
      System.out.println(new String(db.get(row, bytes("name")), UTF_8)); // Ada
      try (CellScanner cells = db.scan(null, null)) { // lang, then name
        while (cells.hasNext()) System.out.println(new String(cells.next().column(), UTF_8));
      }
    }
    // README-EXAMPLE-END
  }
}
