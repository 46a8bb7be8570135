package dev.strata.engine;

import dev.strata.engine.memtable.MemTableMemory;
import dev.strata.engine.observe.BeanRegistration;
import dev.strata.engine.version.TableCache;
import javax.management.ObjectName;

/**
 * The seams tests use on an open database ({@link Db#seams}): hooks that hold a flush, a compaction
 * or a stopped writer where a test wants it, and the count of open table readers. Package-private;
 * the engine never calls them.
 *
 * <p>Thread-safe: each hook is a volatile field of the part that runs it.
 */
final class TestSeams {
  private final BackgroundWork background;
  private final WritePath writePath;
  private final TableCache tables;
  private final MemTableMemory memory;
  private final BeanRegistration management;

  TestSeams(BackgroundWork background, WritePath writePath, TableCache tables,
      MemTableMemory memory, BeanRegistration management) {
    this.background = background;
    this.writePath = writePath;
    this.tables = tables;
    this.memory = memory;
    this.management = management;
  }

  /**
   * Waits until the open's registration of the management bean has ended (it runs on a thread of
   * its own, see {@link BeanRegistration}); the bean's name, or null when it could not register.
   */
  ObjectName awaitManagementBean() {
    return management.await();
  }

  /**
   * Makes every compaction run {@code hook} on the compaction thread, without the mutex, before it
   * reads its inputs: a test holds compactions there to show what does not wait for them.
   */
  void beforeEachCompaction(Runnable hook) {
    background.beforeEachCompaction(hook);
  }

  /** Makes every flush run {@code hook} on the flush thread, without the mutex, before it writes. */
  void beforeEachFlush(Runnable hook) {
    background.beforeEachFlush(hook);
  }

  /**
   * Makes every writer run {@code hook}, under the mutex, when it starts to wait for room (a stop,
   * which {@link WriteStats#stops} counts once it ends): a test learns the writer is stopped now.
   */
  void onEachWriterStop(Runnable hook) {
    writePath.onEachWriterStop(hook);
  }

  /** Table readers open now, held or not; for tests of the {@code maxOpenFiles} bound. */
  int openTableReaders() {
    return tables.openReaders();
  }

  /** Direct memory the memtables hold now, pooled chunks included; for tests of their lifetime. */
  long memTableDirectBytes() {
    return memory.allocatedBytes();
  }
}
