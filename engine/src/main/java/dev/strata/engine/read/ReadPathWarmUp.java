package dev.strata.engine.read;

import dev.strata.engine.manifest.FileMetadata;
import dev.strata.engine.memtable.MemTable;
import dev.strata.engine.version.ReadView;
import dev.strata.engine.version.TableCache;
import dev.strata.engine.version.TableRef;
import dev.strata.engine.version.Version;
import dev.strata.sstable.ReadCounters;
import dev.strata.sstable.cache.ClockBlockCache;
import dev.strata.sstable.key.InternalKey;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs the Get path once per JVM, at the first open that has a table, so that its one-time costs
 * are the open's and not the first Get's (issue 9, cold start).
 *
 * <p>Why: the first Get in a fresh JVM loaded and verified some 60 classes (the filter's hashing,
 * the cache's single-flight futures, cursors, the bloom filter) and linked the read path's lambdas:
 * 15-20 ms of CPU, against RocksDB's sub-millisecond first Get, whose code is native. A list of
 * class names to load would go stale as the code moves; running the path keeps itself current.
 *
 * <p>It reads one of the database's tables through a table cache, block cache and counters of its
 * own, in a view of just that table and an empty memtable: a Get of the table's smallest cell and
 * one of a row just after it (a filter chunk, an index partition and a data block or two, about 12
 * KB). Nothing of it shows in the database's statistics or its block cache. Best effort: a
 * failure is the business of the reads that reach the table, and the next open tries again.
 *
 * <p>Thread-safe (static methods only).
 */
public final class ReadPathWarmUp {
  /** The private block cache: room for the few blocks the two Gets read. */
  private static final long CACHE_BYTES = 1 << 20;

  private static final byte[] EMPTY = new byte[0];

  /** Set once a warm-up has started in this JVM; cleared again when one fails. */
  private static final AtomicBoolean STARTED = new AtomicBoolean();

  private ReadPathWarmUp() {}

  /** Warms the Get path on {@code table} of the database in {@code dir}, once in this JVM. */
  public static void onceInThisJvm(Path dir, FileMetadata table) {
    if (STARTED.get() || !STARTED.compareAndSet(false, true)) {
      return;
    }
    try (TableCache tables = new TableCache(dir, TableCache.UNLIMITED,
        new ClockBlockCache(CACHE_BYTES, 1), new ReadCounters())) {
      TableRef ref = TableRef.open(dir, table, tables);
      List<List<TableRef>> levels = new ArrayList<>();
      for (int level = 0; level < Version.NUM_LEVELS; level++) {
        levels.add(level == table.level() ? List.of(ref) : List.of());
      }
      Version version = Version.of(levels); // holds the table's reference now
      ReadView view = new ReadView(new MemTable(), List.of(), version);
      version.release(); // the view's reference is the last: releasing it closes the reader
      try {
        InternalKey first = table.smallest();
        ReadPath.get(view, InternalKey.MAX_SEQUENCE, first.row(), first.column());
        byte[] after = Arrays.copyOf(first.row(), first.row().length + 1);
        ReadPath.get(view, InternalKey.MAX_SEQUENCE, after, EMPTY);
      } finally {
        view.release();
      }
    } catch (IOException | RuntimeException e) {
      STARTED.set(false);
    }
  }
}
