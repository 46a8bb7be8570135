package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.engine.fs.FaultyFileLayer;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real full disk: an 8 MiB tmpfs filled up by writes and a ballast file. Once
 * the ballast goes, the database resumes on its own, and every acknowledged write is there before
 * and after a reopen. Mounting needs root, which CI has; elsewhere the same scenario runs on {@link
 * FaultyFileLayer}'s simulated full disk, so the test never skips.
 */
final class RealDiskFullTest {
  @TempDir Path dir;

  @Test
  void fullDisk_writesFailThenResumeOnceSpaceReturns_acknowledgedWritesSurvive() throws Exception {
    Path mount = Files.createDirectories(dir.resolve("tmpfs"));
    boolean real = run("mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", mount.toString());
    System.out.println("RealDiskFullTest: " + (real ? "8 MiB tmpfs" : "simulated full disk"));
    FaultyFileLayer simulated = new FaultyFileLayer();
    try {
      Path db = mount.resolve("db");
      DbOptions.Builder b =
          DbOptions.builder().memtableBytes(256 << 10).autoCompaction(false).compression(Compression.NONE);
      EngineHooks hooks = real ? EngineHooks.NONE : EngineHooks.NONE.withFileLayer(simulated);
      List<Integer> acked = new ArrayList<>();
      try (Db d = Db.open(db, b.build(), hooks)) {
        Path ballast = mount.resolve("ballast");
        if (real) {
          fill(ballast, 5 << 20);
        }
        int failures = 0;
        for (int i = 0; i < 4000 && failures < 20; i++) {
          if (!real && i == 300) {
            simulated.diskFull(true);
          }
          try {
            d.put(key(i), value(i));
            acked.add(i);
          } catch (IOException e) {
            failures++;
          }
        }
        assertTrue(failures > 0, "the disk never filled up");
        for (int i : acked) {
          assertArrayEquals(value(i), d.get(key(i)));
        }
        Files.deleteIfExists(ballast);
        simulated.diskFull(false);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
          try {
            d.put(b("after"), b("space returned"));
            d.flush();
            break;
          } catch (IOException e) {
            if (System.nanoTime() > deadline) {
              throw new AssertionError("no resume once space returned", e);
            }
            Thread.sleep(100);
          }
        }
      }
      try (Db d = Db.open(db, b.build(), hooks)) {
        for (int i : acked) {
          assertArrayEquals(value(i), d.get(key(i)));
        }
        assertArrayEquals(b("space returned"), d.get(b("after")));
        assertEquals(0, d.stats().recovery().walBytesDropped());
      }
    } finally {
      if (real && !run("umount", mount.toString())) {
        throw new AssertionError("could not unmount " + mount);
      }
    }
  }

  private static void fill(Path file, int bytes) throws IOException {
    try (OutputStream out = Files.newOutputStream(file)) {
      out.write(new byte[bytes]);
    }
  }

  private static boolean run(String... command) throws InterruptedException {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException e) {
      return false; // no mount command: the simulated disk stands in
    }
  }

  private static byte[] key(int i) {
    return b(String.format("key%06d", i));
  }

  private static byte[] value(int i) {
    byte[] v = new byte[4096];
    java.util.Arrays.fill(v, (byte) i);
    return v;
  }

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
