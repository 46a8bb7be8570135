package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Closing the database closes its open scanners: every later use throws {@link
 * IllegalStateException}, and the files they pinned are released at once (the leak check after
 * each test sees a file left open), so a new open of the directory never deletes files under them.
 */
final class ScannerAfterCloseTest {
  @TempDir Path dir;

  @Test
  void scanner_afterDbClose_throwsIllegalStateAndHoldsNoFile() throws Exception {
    CellScanner flushed;
    CellScanner fresh;
    CellScanner exhausted;
    try (Db db = Db.open(dir, DbOptions.builder().autoCompaction(false).build())) {
      for (int i = 0; i < 100; i++) {
        db.put(b("k" + i), b("v" + i));
      }
      db.flush();
      db.put(b("mem"), b("x"));
      flushed = db.scan(null, null);
      assertTrue(flushed.hasNext());
      flushed.next();
      fresh = db.scan(b("k5"), null);
      exhausted = db.scan(b("zzz"), null);
      assertTrue(!exhausted.hasNext());
    }
    for (CellScanner s : new CellScanner[] {flushed, fresh}) {
      assertThrows(IllegalStateException.class, s::hasNext);
      assertThrows(IllegalStateException.class, s::next);
      s.close(); // closing again is allowed and does nothing
    }
    assertThrows(IllegalStateException.class, exhausted::hasNext);
    try (Db db = Db.open(dir)) {
      db.compact(); // deletes the table the scanners pinned: none of them may still read it
      assertArrayEquals(b("v42"), db.get(b("k42")));
    }
  }

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
