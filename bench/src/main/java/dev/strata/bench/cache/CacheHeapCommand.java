package dev.strata.bench.cache;

import dev.strata.sstable.block.Block;
import dev.strata.sstable.block.BlockBuilder;
import dev.strata.sstable.block.BlockType;
import dev.strata.sstable.cache.BlockCacheKey;
import dev.strata.sstable.cache.BlockKind;
import dev.strata.sstable.cache.ClockBlockCache;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.KeyCodec;
import dev.strata.sstable.key.ValueKind;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import javax.management.ObjectName;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code strata-bench cacheheap}: what a cached data block costs on the heap, measured rather than
 * computed. Fills a {@link ClockBlockCache} large enough to hold them all with {@code --blocks} real
 * data blocks of about {@code --block-bytes} (parsed from a {@link BlockBuilder} payload), then diffs
 * the live-object class histograms taken before and after (the DiagnosticCommand MBean's {@code
 * gcClassHistogram}, what {@code jcmd <pid> GC.class_histogram} prints; it runs a full collection
 * first, so only live objects count). Prints the heap bytes per cached block by class, and what the
 * cache charges per block, so the charge can be checked against what the blocks really cost.
 *
 * <p>Independent of the machine's load: it counts objects, it times nothing.
 *
 * <pre>
 * java -cp bench/target/strata-bench.jar -Xmx2g dev.strata.bench.StrataBench cacheheap
 * java -jar bench/target/strata-bench.jar cacheheap --blocks 200000 --heap
 * </pre>
 *
 * <p>Not thread-safe: one instance per invocation.
 */
@Command(
    name = "cacheheap",
    mixinStandardHelpOptions = true,
    description = "Fill the block cache with data blocks and print their heap bytes per block, by class.")
public final class CacheHeapCommand implements Callable<Integer> {
  /** One path for every block, as a table reader shares its own among its blocks. */
  private static final Path FILE = Path.of("cacheheap");

  @Spec private CommandSpec spec;

  @Option(names = "--blocks", description = "Data blocks cached (default: ${DEFAULT-VALUE}).")
  private int blocks = 100_000;

  @Option(names = "--block-bytes", description = "About this many payload bytes per block (default: ${DEFAULT-VALUE}).")
  private int blockBytes = 4096;

  @Option(names = "--heap", description = "Keep data blocks on the heap (default: off the heap).")
  private boolean heap;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    Block template = dataBlock(blockBytes);
    long capacity = (long) blocks * (template.sizeBytes() + 1024) + (64L << 20);
    Map<String, long[]> before = histogram();
    ClockBlockCache cache = new ClockBlockCache(capacity, ClockBlockCache.DEFAULT_SHARDS, !heap);
    for (int i = 0; i < blocks; i++) {
      BlockCacheKey key = new BlockCacheKey(1 + i % 64, (long) i * blockBytes);
      Block b = heap ? copy(template) : template; // off the heap the template's bytes are copied
      cache.getOrLoad(key, BlockKind.DATA, () -> b);
    }
    Map<String, long[]> after = histogram();
    long held = cache.stats().blocksHeld();
    if (held != blocks) {
      throw new IllegalStateException("cached " + held + " of " + blocks + " blocks");
    }
    List<Map.Entry<String, long[]>> grown = new ArrayList<>();
    long total = 0;
    for (Map.Entry<String, long[]> e : after.entrySet()) {
      long[] was = before.getOrDefault(e.getKey(), new long[2]);
      long[] diff = {e.getValue()[0] - was[0], e.getValue()[1] - was[1]};
      if (diff[1] > blocks / 10) { // ignore what grew by less than a byte per 10 blocks
        grown.add(Map.entry(e.getKey(), diff));
        total += diff[1];
      }
    }
    grown.sort((a, b) -> Long.compare(b.getValue()[1], a.getValue()[1]));
    out.printf(Locale.ROOT, "%d data blocks of %d payload bytes, %s; live heap grew by:%n",
        blocks, template.data.length, heap ? "on the heap" : "off the heap");
    out.printf(Locale.ROOT, "  %-60s %12s %12s %10s%n", "class", "instances", "bytes", "bytes/blk");
    for (Map.Entry<String, long[]> e : grown) {
      out.printf(Locale.ROOT, "  %-60s %12d %12d %10.1f%n", e.getKey(), e.getValue()[0],
          e.getValue()[1], e.getValue()[1] / (double) blocks);
    }
    out.printf(Locale.ROOT, "heap bytes per block: %.1f (%.1f besides byte[])%n", total / (double) blocks,
        (total - grown.stream().filter(e -> e.getKey().equals("[B")).mapToLong(e -> e.getValue()[1]).sum())
            / (double) blocks);
    out.printf(Locale.ROOT, "charged per block: %.1f (off-heap slots: %d bytes reserved)%n",
        cache.stats().bytesHeld() / (double) blocks, cache.offHeapReservedBytes());
    cache.close();
    out.flush();
    return 0;
  }

  /** A data block of about {@code bytes} payload bytes: 100-byte values under 16-byte rows. */
  private static Block dataBlock(int bytes) throws IOException {
    BlockBuilder builder = new BlockBuilder(16);
    byte[] value = new byte[100];
    byte[] empty = new byte[0];
    for (int i = 0; builder.estimatedSize() < bytes - 140; i++) {
      byte[] row = String.format(Locale.ROOT, "row%013d", i).getBytes(StandardCharsets.US_ASCII);
      byte[] key = KeyCodec.encodeInternalKey(new InternalKey(row, empty, i + 1, ValueKind.PUT));
      builder.add(key, key.length, value, 0, value.length);
    }
    int length = builder.estimatedSize();
    byte[] payload = java.util.Arrays.copyOf(builder.finish(), length);
    return Block.parse(payload, length, BlockType.DATA, FILE, 0);
  }

  private static Block copy(Block b) throws IOException {
    byte[] data = b.data.clone();
    return Block.parse(data, data.length, BlockType.DATA, FILE, 0);
  }

  /** Live objects by class name: {instances, bytes}, after a full collection. */
  private static Map<String, long[]> histogram() throws Exception {
    String text = (String) ManagementFactory.getPlatformMBeanServer().invoke(
        new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
        new Object[] {new String[0]}, new String[] {String[].class.getName()});
    Map<String, long[]> classes = new HashMap<>();
    for (String line : text.split("\n")) {
      String[] f = line.trim().split("\\s+");
      if (f.length >= 4 && f[0].endsWith(":")) { // "  1:  instances  bytes  class (module)"
        classes.merge(f[3], new long[] {Long.parseLong(f[1]), Long.parseLong(f[2])},
            (a, b) -> new long[] {a[0] + b[0], a[1] + b[1]});
      }
    }
    return classes;
  }
}
