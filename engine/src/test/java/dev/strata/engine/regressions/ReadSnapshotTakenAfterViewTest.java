package dev.strata.engine.regressions;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.engine.BloomType;
import dev.strata.engine.CellScanner;
import dev.strata.engine.Db;
import dev.strata.engine.DbOptions;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Guards the order "acquire the read view, then take the snapshot" in Get, getRow and scan. Taken
 * the other way round, a flush finishing in between published a table holding only the cell's newer
 * version (invisible at the snapshot) and dropped the older one, so a Get fell through to older
 * tables and returned an older value, or null, for a cell acknowledged long before. The window is a
 * few instructions wide, so this is a stress test: before the fix it failed about one run in three.
 */
@Tag("slow")
final class ReadSnapshotTakenAfterViewTest {
  @TempDir Path dir;

  @Test
  void reads_duringConstantFlushes_neverGoBackBehindAnAcknowledgedPut() throws Exception {
    DbOptions options =
        DbOptions.builder()
            .bloomType(BloomType.ROW)
            .memtableBytes(1024)
            .level0CompactionTrigger(2)
            .targetFileSizeBytes(4096)
            .maxBytesForLevelBase(16 * 1024)
            .build();
    byte[] key = "hot".getBytes(StandardCharsets.UTF_8);
    try (Db db = Db.open(dir, options)) {
      AtomicReference<String> failure = new AtomicReference<>();
      AtomicBoolean running = new AtomicBoolean(true);
      int[] acknowledged = {-1};
      List<Thread> readers = new ArrayList<>();
      for (int t = 0; t < 6; t++) {
        boolean useScan = t % 3 == 2;
        readers.add(
            new Thread(
                () -> {
                  try {
                    while (failure.get() == null && running.get()) {
                      int before;
                      synchronized (acknowledged) {
                        before = acknowledged[0];
                      }
                      byte[] got;
                      if (useScan) {
                        try (CellScanner s = db.scan(key, null)) {
                          got = s.hasNext() ? s.next().value() : null;
                        }
                      } else {
                        got = db.get(key);
                      }
                      int version = got == null ? -1 : ByteBuffer.wrap(got).getInt();
                      if (version < before) {
                        failure.compareAndSet(
                            null, "read version " + version + " after " + before + " was acknowledged");
                      }
                    }
                  } catch (Exception e) {
                    failure.compareAndSet(null, e.toString());
                  }
                }));
      }
      readers.forEach(Thread::start);
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      for (int version = 0; System.nanoTime() < end && failure.get() == null; version++) {
        db.put(key, ByteBuffer.allocate(300).putInt(version).array());
        synchronized (acknowledged) {
          acknowledged[0] = version;
        }
      }
      running.set(false);
      for (Thread t : readers) {
        t.join();
      }
      assertTrue(failure.get() == null, failure.get());
    }
  }
}
