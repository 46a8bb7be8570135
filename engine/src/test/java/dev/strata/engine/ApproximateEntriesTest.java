package dev.strata.engine;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The entry estimate counts the memtables' and the tables' entries, versions and deletes included. */
final class ApproximateEntriesTest {
  @TempDir Path dir;

  private static byte[] b(String s) {
    return s.getBytes(UTF_8);
  }

  @Test
  void countsMemtableAndTableEntries_untilACompactionMergesThem() throws IOException {
    DbOptions options = DbOptions.builder().autoCompaction(false).build();
    Db db = Db.open(dir, options);
    try {
      assertEquals(0, db.approximateEntries());
      for (int i = 0; i < 100; i++) {
        db.put(b("k" + i), b("v"));
      }
      assertEquals(100, db.approximateEntries(), "in the memtable");
      db.flush();
      for (int i = 0; i < 50; i++) {
        db.put(b("k" + i), b("w")); // a newer version of half of them
      }
      db.delete(b("k99"));
      assertEquals(151, db.approximateEntries(), "a table and the memtable, every version");
      db.compact();
      assertEquals(99, db.approximateEntries(), "merged: one live version each, the delete gone");
    } finally {
      db.close();
    }
    assertThrows(IllegalStateException.class, db::approximateEntries);
    try (Db again = Db.open(dir, options)) {
      assertEquals(99, again.approximateEntries(), "from the manifest after a reopen");
    }
  }
}
