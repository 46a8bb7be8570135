package dev.strata.bench.tools;

import dev.strata.bloom.BlockedBloomFilter;
import dev.strata.engine.fs.FileNames;
import dev.strata.sstable.TableLayout;
import dev.strata.sstable.TableProperties;
import dev.strata.sstable.TableReader;
import dev.strata.sstable.block.BlockLocation;
import dev.strata.sstable.cache.ClockBlockCache;
import dev.strata.sstable.filter.FilterChunkInfo;
import dev.strata.sstable.filter.FilterKind;
import dev.strata.sstable.filter.FilterType;
import dev.strata.sstable.key.InternalKey;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code strata-bench inspect TABLE}: what one table holds, like RocksDB's {@code sst_dump
 * --show_properties} and HBase's HFile tool: its properties, key range, data blocks and their
 * sizes, compression ratio, and its filter (bloom type, bits/key, how many chunks of each kind,
 * Bloom or Ribbon, and every chunk with its kind, size and key range). Reads the file only; safe on a live database's tables.
 *
 * <pre>
 * java -jar bench/target/strata-bench.jar inspect /data/db/000012.sst
 * java -jar bench/target/strata-bench.jar inspect --chunks 0 /data/db/000012.sst   # no chunk list
 * </pre>
 *
 * <p>Not thread-safe: one instance per invocation.
 */
@Command(
    name = "inspect",
    mixinStandardHelpOptions = true,
    description = "Print a table's properties, key range, blocks, compression ratio and filter"
        + " (bloom type, bits/key, chunks with sizes and key ranges).")
public final class InspectCommand implements Callable<Integer> {
  @Spec private CommandSpec spec;

  @Parameters(paramLabel = "TABLE", description = "The table file (NNNNNN.sst).")
  private Path table;

  @Option(names = "--chunks", defaultValue = "50", paramLabel = "N",
      description = "List at most N filter chunks (first and last ones). Default: ${DEFAULT-VALUE}.")
  private int maxChunks;

  @Override
  public Integer call() throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    if (!Files.isRegularFile(table)) {
      spec.commandLine().getErr().println("inspect: no such table file: " + table);
      return 1;
    }
    long fileNumber = FileNames.parse(table.getFileName()).map(n -> n.number()).orElse(0L);
    TableProperties p;
    long fileSize;
    List<FilterChunkInfo> chunks;
    List<FilterKind> kinds;
    List<BlockLocation> blocks;
    long indexRoot;
    long pinned;
    try (TableReader reader = TableReader.open(table, fileNumber, new ClockBlockCache(0))) {
      p = reader.properties();
      TableLayout layout = reader.layout();
      fileSize = layout.fileSize();
      chunks = layout.filterChunks();
      kinds = p.filterType() == FilterType.NONE ? List.of() : layout.filterChunkKinds();
      blocks = layout.dataBlocks();
      indexRoot = layout.indexRootBytes();
      pinned = reader.pinnedBytes();
    }
    out.printf(Locale.ROOT, "table            %s%n", table);
    out.printf(Locale.ROOT, "file size        %,d bytes, format version %d%n", fileSize,
        p.formatVersion());
    out.printf(Locale.ROOT, "entries          %,d (puts %,d, deletes %,d, row tombstones %,d)%n",
        p.entryCount(), p.putCount(), p.deleteCount(), p.rowTombstoneCount());
    out.printf(Locale.ROOT, "rows, cells      %,d distinct rows, %,d distinct cells%n",
        p.distinctRowCount(), p.distinctCellCount());
    out.printf(Locale.ROOT, "sequences        %d .. %d%n", p.minSequence(), p.maxSequence());
    out.printf(Locale.ROOT, "key range        %s .. %s%n", key(p.smallestKey()), key(p.largestKey()));
    out.printf(Locale.ROOT, "raw bytes        keys %,d, values %,d%n", p.rawKeyBytes(),
        p.rawValueBytes());
    long raw = p.rawKeyBytes() + p.rawValueBytes();
    out.printf(Locale.ROOT, "data blocks      %,d blocks, %,d bytes stored (target %,d bytes"
        + " before compression), compression %s%n", p.dataBlockCount(), p.dataBytes(),
        p.blockSizeBytes(), p.compression());
    if (!blocks.isEmpty()) {
      int min = Integer.MAX_VALUE;
      int max = 0;
      for (BlockLocation h : blocks) {
        min = Math.min(min, h.length());
        max = Math.max(max, h.length());
      }
      out.printf(Locale.ROOT, "data block size  min %,d, avg %,.0f, max %,d bytes stored%n", min,
          (double) p.dataBytes() / blocks.size(), max);
    }
    out.printf(Locale.ROOT, "compression      raw keys+values / stored data = %.2f (%.1f%% of raw)%n",
        p.dataBytes() == 0 ? 0.0 : (double) raw / p.dataBytes(),
        raw == 0 ? 0.0 : 100.0 * p.dataBytes() / raw);
    out.printf(Locale.ROOT, "index            %,d bytes; %s %,d bytes%n", p.indexBytes(),
        p.formatVersion() >= 3 ? "top level read at open" : "one block of",
        indexRoot);
    out.printf(Locale.ROOT, "pinned when open %,d heap bytes (index top level, filter index)%n", pinned);
    printFilter(out, p, chunks, kinds);
    out.flush();
    return 0;
  }

  private void printFilter(PrintWriter out, TableProperties p, List<FilterChunkInfo> chunks,
      List<FilterKind> kinds) {
    out.printf(Locale.ROOT, "bloom type       %s%n", p.filterType());
    if (p.filterType() == FilterType.NONE) {
      out.printf(Locale.ROOT, "filter           none (%d chunks)%n", p.filterChunkCount());
      return;
    }
    long chunkBytes = 0;
    for (FilterChunkInfo c : chunks) {
      chunkBytes += c.location().length();
    }
    long keysPerChunk = Math.max(1, p.filterKeyCount() / Math.max(1, p.filterChunkCount()));
    out.printf(Locale.ROOT, "bits per key     %s configured, %.2f in the chunks (%,d filter keys%s)%n",
        p.bitsPerKey(), p.filterKeyCount() == 0 ? 0.0 : chunkBytes * 8.0 / p.filterKeyCount(),
        p.filterKeyCount(), p.filterType() == FilterType.ROWCOL ? ": cells and rows" : ": rows");
    Map<FilterKind, long[]> byKind = new EnumMap<>(FilterKind.class); // chunks, bytes
    for (int i = 0; i < chunks.size(); i++) {
      long[] k = byKind.computeIfAbsent(kinds.get(i), x -> new long[2]);
      k[0]++;
      k[1] += chunks.get(i).location().length();
    }
    StringBuilder kindLine = new StringBuilder();
    for (FilterKind k : FilterKind.values()) {
      long[] c = byKind.getOrDefault(k, new long[2]);
      kindLine.append(kindLine.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT,
          "%s %d chunks (%,d bytes, about %.2f bits per key)", k, c[0], c[1],
          c[0] == 0 ? 0.0 : c[1] * 8.0 / (c[0] * keysPerChunk)));
    }
    out.printf(Locale.ROOT, "filter kinds     %s%n", kindLine);
    if (byKind.containsKey(FilterKind.BLOOM)) {
      out.printf(Locale.ROOT, "model FPR        %.5f (BlockedBloomFilter.expectedFpp, %,d keys per chunk;"
              + " Bloom chunks)%n",
          BlockedBloomFilter.create(keysPerChunk, p.bitsPerKey()).expectedFpp(keysPerChunk),
          keysPerChunk);
    }
    out.printf(Locale.ROOT, "filter chunks    %d chunks, %,d bytes of chunks (target %,d each),"
        + " %,d filter bytes in all%n", p.filterChunkCount(), chunkBytes, p.filterChunkBytes(),
        p.filterBytes());
    int n = chunks.size();
    for (int i = 0; i < n; i++) {
      if (n > maxChunks && i >= maxChunks / 2 && i < n - maxChunks / 2) {
        if (i == maxChunks / 2) {
          out.printf(Locale.ROOT, "  ... %d chunks not shown (--chunks)%n", n - 2 * (maxChunks / 2));
        }
        continue;
      }
      FilterChunkInfo c = chunks.get(i);
      String first = i == 0 ? key(p.smallestKey()) + " (table's first)"
          : "after " + Printable.cell(chunks.get(i - 1).lastRow(), chunks.get(i - 1).lastColumn());
      out.printf(Locale.ROOT, "  chunk %-5d %-6s offset %,12d  %,9d bytes  keys %s .. %s%n", i,
          kinds.get(i), c.location().offset(), c.location().length(), first,
          Printable.cell(c.lastRow(), c.lastColumn()));
    }
  }

  private static String key(InternalKey k) {
    return Printable.cell(k.row(), k.column()) + " @" + k.sequence() + " " + k.kind();
  }
}
