package dev.strata.sstable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.strata.sstable.cache.ClockBlockCache;
import dev.strata.sstable.filter.FilterProbe;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.ValueKind;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A FileChannel closes for every thread when a reading thread is interrupted; a table reader must
 * survive applications that interrupt their own threads, reading through the page cache or directly.
 */
final class TableReaderInterruptTest {
  @TempDir Path dir;

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private Path table(int rows) throws Exception {
    Path file = dir.resolve("000001.sst");
    TableOptions options = TableOptions.defaults().withBlockSizeBytes(256);
    try (TableWriter w = TableWriter.create(file, options)) {
      for (int i = 0; i < rows; i++) {
        w.add(new InternalKey(b(String.format("row%05d", i)), b("c"), i + 1, ValueKind.PUT), b("v" + i));
      }
      w.finish();
    }
    return file;
  }

  private static TableReader open(Path file, boolean direct) throws Exception {
    TableReader r =
        TableReader.open(file, 1, new ClockBlockCache(0), new ReadCounters(), false, new TableReadOptions(direct, 0));
    if (r.readsDirect() != direct) {
      r.close();
      assumeTrue(false, "the file system refused O_DIRECT");
    }
    return r;
  }

  /**
   * Runs {@code get} on a new thread whose interrupt is set: what it returned if the flag was still
   * set after it, else "flag lost", or what it threw.
   */
  private static Object onInterruptedThread(Callable<GetResult> get) throws InterruptedException {
    AtomicReference<Object> seen = new AtomicReference<>();
    Thread t =
        new Thread(
            () -> {
              Thread.currentThread().interrupt();
              try {
                GetResult r = get.call();
                seen.set(Thread.currentThread().isInterrupted() ? r : "flag lost");
              } catch (Exception e) {
                seen.set(e);
              }
            });
    t.start();
    t.join();
    return seen.get();
  }

  @ParameterizedTest(name = "direct reads {0}")
  @ValueSource(booleans = {false, true})
  void get_byAnInterruptedThreadReadsAndKeepsTheFlagAndTheFileOpen(boolean direct) throws Exception {
    Path file = table(2000);
    try (TableReader reader = open(file, direct)) {
      Object seen = onInterruptedThread(
          () -> reader.get(FilterProbe.of(b("row00042"), b("c")), InternalKey.MAX_SEQUENCE));
      assertTrue(seen instanceof GetResult, () -> "got " + seen);
      assertArrayEquals(b("v42"), ((GetResult) seen).value());
      // Other threads still read: the shared channel was not closed by the interrupt.
      for (int i = 0; i < 2000; i += 97) {
        GetResult r = reader.get(FilterProbe.of(b(String.format("row%05d", i)), b("c")), InternalKey.MAX_SEQUENCE);
        assertArrayEquals(b("v" + i), r.value());
      }
    }
  }

  /**
   * Opening asks the file's size, a channel call like a read: a reader thread whose interrupt is
   * set opens the table (a table cache miss inside a Get) instead of failing with {@code
   * ClosedByInterruptException}, and keeps the flag.
   */
  @ParameterizedTest(name = "direct reads {0}")
  @ValueSource(booleans = {false, true})
  void open_byAnInterruptedThreadOpensAndKeepsTheFlag(boolean direct) throws Exception {
    Path file = table(2000);
    open(file, direct).close(); // skips the test where O_DIRECT is refused
    Object seen = onInterruptedThread(() -> {
      try (TableReader reader = open(file, direct)) {
        return reader.get(FilterProbe.of(b("row01234"), b("c")), InternalKey.MAX_SEQUENCE);
      }
    });
    assertTrue(seen instanceof GetResult, () -> "got " + seen);
    assertArrayEquals(b("v1234"), ((GetResult) seen).value());
  }

  @ParameterizedTest(name = "direct reads {0}")
  @ValueSource(booleans = {false, true})
  void reads_surviveInterruptsArrivingMidRead(boolean direct) throws Exception {
    Path file = table(5000);
    // Every direct read goes to the device (the cache here holds nothing), about a hundred times
    // slower than a page-cache hit: 20,000 Gets per thread took 100-260 s of a CI run. A tenth of
    // them still meets thousands of interrupts mid-read, since each read is that much longer.
    int gets = direct ? 2_000 : 20_000;
    try (TableReader reader = open(file, direct)) {
      Thread[] readers = new Thread[2];
      AtomicReference<Throwable> failure = new AtomicReference<>();
      for (int n = 0; n < readers.length; n++) {
        readers[n] =
            new Thread(
                () -> {
                  for (int i = 0; i < gets && failure.get() == null; i++) {
                    int row = i % 5000;
                    try {
                      GetResult r =
                          reader.get(FilterProbe.of(b(String.format("row%05d", row)), b("c")), InternalKey.MAX_SEQUENCE);
                      assertArrayEquals(b("v" + row), r.value());
                    } catch (Throwable e) {
                      failure.compareAndSet(null, e);
                    }
                    Thread.interrupted();
                  }
                });
        readers[n].start();
      }
      while (readers[0].isAlive() || readers[1].isAlive()) {
        readers[0].interrupt();
        readers[1].interrupt();
        Thread.onSpinWait();
      }
      assertEquals(null, failure.get());
    }
  }
}
