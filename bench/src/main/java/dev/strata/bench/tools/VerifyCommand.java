package dev.strata.bench.tools;

import dev.strata.engine.fs.FileNames;
import dev.strata.engine.manifest.FileMetadata;
import dev.strata.engine.manifest.Manifest;
import dev.strata.engine.manifest.ManifestReader;
import dev.strata.sstable.TableReader;
import dev.strata.sstable.cache.ClockBlockCache;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code strata-bench verify DIR}: checks a database's manifest (checksum, parse, invariants) and
 * every block of every table it lists ({@link TableReader#verifyChecksums}: footer, properties,
 * filter index and chunks, index, every data block, entry order and counts), and that each file
 * has the size the manifest records. Prints one line per table and exits 0 when everything is
 * intact, 1 naming every damaged or missing file otherwise. Reads only; takes no lock.
 *
 * <pre>
 * java -jar bench/target/strata-bench.jar verify /data/db
 * </pre>
 *
 * <p>Not thread-safe: one instance per invocation.
 */
@Command(
    name = "verify",
    mixinStandardHelpOptions = true,
    description = "Check the manifest and every block checksum of every table of a database;"
        + " exit 1 naming what is damaged.")
public final class VerifyCommand implements Callable<Integer> {
  @Spec private CommandSpec spec;

  @Parameters(paramLabel = "DIR", description = "The database directory.")
  private Path dir;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (!Files.isDirectory(dir)) {
      err.println("verify: not a directory: " + dir);
      return 1;
    }
    Manifest manifest;
    try {
      Optional<Manifest> m = ManifestReader.readIfExists(dir);
      if (m.isEmpty()) {
        err.println("DAMAGED " + FileNames.manifest(dir) + ": missing (not a Strata database?)");
        return 1;
      }
      manifest = m.get();
    } catch (IOException | RuntimeException e) {
      err.println("DAMAGED " + FileNames.manifest(dir) + ": " + e.getMessage());
      return 1;
    }
    List<String> damaged = new ArrayList<>();
    String problem = manifest.problem();
    if (problem != null) {
      damaged.add(FileNames.manifest(dir) + ": " + problem);
    }
    out.printf(Locale.ROOT, "manifest %s: %d tables, next file number %d, last sequence %d%n",
        FileNames.manifest(dir), manifest.files().size(), manifest.nextFileNumber(),
        manifest.lastSequence());
    Set<Path> listed = new HashSet<>();
    int tablesDamaged = 0;
    for (FileMetadata f : manifest.files()) {
      Path file = FileNames.table(dir, f.fileNumber());
      listed.add(file.getFileName());
      String result = verifyTable(file, f);
      if (result == null) {
        out.printf(Locale.ROOT, "ok      %s  L%d  %,d bytes  %,d entries%n", file.getFileName(),
            f.level(), f.fileSize(), f.entryCount());
      } else {
        damaged.add(file + ": " + result);
        tablesDamaged++;
      }
    }
    for (Path orphan : orphans(listed)) {
      out.println("note    " + orphan + " is not in the manifest (left over; not read)");
    }
    for (String d : damaged) {
      err.println("DAMAGED " + d);
    }
    out.printf(Locale.ROOT, "%s: %d of %d tables intact%s%n", dir,
        manifest.files().size() - tablesDamaged, manifest.files().size(),
        damaged.isEmpty() ? "" : "; DAMAGED: " + damaged.size() + " file(s)");
    out.flush();
    err.flush();
    return damaged.isEmpty() ? 0 : 1;
  }

  /** Null when the table is intact, else what is wrong with it. */
  private static String verifyTable(Path file, FileMetadata f) {
    try {
      if (!Files.exists(file)) {
        return "missing";
      }
      long size = Files.size(file);
      if (size != f.fileSize()) {
        return "size " + size + " bytes, the manifest says " + f.fileSize();
      }
      try (TableReader reader = TableReader.open(file, f.fileNumber(), new ClockBlockCache(0))) {
        reader.verifyChecksums();
        if (reader.properties().entryCount() != f.entryCount()) {
          return reader.properties().entryCount() + " entries, the manifest says "
              + f.entryCount();
        }
      }
      return null;
    } catch (IOException | RuntimeException e) {
      return e.getClass().getSimpleName() + ": " + e.getMessage();
    }
  }

  private List<Path> orphans(Set<Path> listed) {
    List<Path> out = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      files.map(Path::getFileName)
          .filter(n -> n.toString().endsWith(FileNames.TABLE_SUFFIX) && !listed.contains(n))
          .sorted()
          .forEach(out::add);
    } catch (IOException e) {
      return out;
    }
    return out;
  }
}
