package dev.strata.engine.fs;

import dev.strata.sstable.format.SstableFormat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The names of the files in a database directory, and their parsing:
 *
 * <pre>
 * 000012.sst     an SSTable, numbered from the shared file-number counter
 * 000013.log     a write-ahead log, same counter
 * MANIFEST       the set of live tables and the counters (replaced atomically)
 * MANIFEST.tmp   the next MANIFEST while it is written; garbage after a crash
 * 000014.tmp     any other file being written; garbage after a crash
 * LOCK           the directory lock, never deleted
 * </pre>
 *
 * <p>Numbers are written in decimal with at least six digits, so names sort by number until a
 * million files; {@link #parse} accepts exactly the names this class produces and nothing else.
 *
 * <p>Thread-safe (stateless).
 */
public final class FileNames {

  /** The lock file's name. */
  public static final String LOCK = "LOCK";

  /** The manifest's name. */
  public static final String MANIFEST = "MANIFEST";

  /** The suffix of tables. */
  public static final String TABLE_SUFFIX = ".sst";

  /** The suffix of write-ahead logs. */
  public static final String LOG_SUFFIX = ".log";

  /** The suffix of files being written, which are garbage after a crash. */
  public static final String TEMP_SUFFIX = ".tmp";

  /** The number a parsed name reports when the file has none (LOCK, MANIFEST, MANIFEST.tmp). */
  public static final long NO_NUMBER = -1;

  /** The kinds of files in a database directory. */
  public enum FileType {
    /** {@code NNNNNN.sst}. */
    TABLE,
    /** {@code NNNNNN.log}. */
    LOG,
    /** {@code MANIFEST}. */
    MANIFEST,
    /** {@code LOCK}. */
    LOCK,
    /** {@code MANIFEST.tmp} or {@code NNNNNN.tmp}. */
    TEMP
  }

  /**
   * A recognized file name.
   *
   * @param type the kind of file
   * @param number its file number, or {@link #NO_NUMBER}
   */
  public record ParsedName(FileType type, long number) {}

  /**
   * A file of a database directory with a name this class produces.
   *
   * @param path the file
   * @param name what its name says it is
   */
  public record DbFile(Path path, ParsedName name) {
    /** True for a file of {@code type}. */
    public boolean is(FileType type) {
      return name.type() == type;
    }

    /** Its file number, or {@link #NO_NUMBER}. */
    public long number() {
      return name.number();
    }
  }

  private FileNames() {}

  /** {@code dir/NNNNNN.sst}. */
  public static Path table(Path dir, long number) {
    return dir.resolve(numbered(number, TABLE_SUFFIX));
  }

  /** {@code dir/NNNNNN.log}. */
  public static Path log(Path dir, long number) {
    return dir.resolve(numbered(number, LOG_SUFFIX));
  }

  /** {@code dir/NNNNNN.tmp}. */
  public static Path temp(Path dir, long number) {
    return dir.resolve(numbered(number, TEMP_SUFFIX));
  }

  /** {@code dir/MANIFEST}. */
  public static Path manifest(Path dir) {
    return dir.resolve(MANIFEST);
  }

  /** {@code dir/MANIFEST.tmp}. */
  public static Path manifestTemp(Path dir) {
    return dir.resolve(MANIFEST + TEMP_SUFFIX);
  }

  /** {@code dir/LOCK}. */
  public static Path lock(Path dir) {
    return dir.resolve(LOCK);
  }

  /** The files of {@code dir} whose names this class produces, in no order; others are left out. */
  public static List<DbFile> list(Path dir) throws IOException {
    List<DbFile> out = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        parse(p.getFileName()).ifPresent(name -> out.add(new DbFile(p, name)));
      }
    }
    return out;
  }

  /**
   * What the file named {@code fileName} (the last path element) is, or empty when it is not ours.
   */
  public static Optional<ParsedName> parse(Path fileName) {
    Path last = fileName.getFileName();
    return last == null ? Optional.empty() : parse(last.toString());
  }

  /** What the file named {@code name} is, or empty when it is not a name this class produces. */
  public static Optional<ParsedName> parse(String name) {
    switch (name) {
      case LOCK:
        return Optional.of(new ParsedName(FileType.LOCK, NO_NUMBER));
      case MANIFEST:
        return Optional.of(new ParsedName(FileType.MANIFEST, NO_NUMBER));
      case MANIFEST + TEMP_SUFFIX:
        return Optional.of(new ParsedName(FileType.TEMP, NO_NUMBER));
      default:
        break;
    }
    FileType type;
    if (name.endsWith(TABLE_SUFFIX)) {
      type = FileType.TABLE;
    } else if (name.endsWith(LOG_SUFFIX)) {
      type = FileType.LOG;
    } else if (name.endsWith(TEMP_SUFFIX)) {
      type = FileType.TEMP;
    } else {
      return Optional.empty();
    }
    String digits = name.substring(0, name.length() - 4);
    if (digits.isEmpty() || digits.length() > 19 || !digits.chars().allMatch(FileNames::isDigit)) {
      return Optional.empty();
    }
    long number;
    try {
      number = Long.parseLong(digits);
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
    if (!numbered(number, name.substring(name.length() - 4)).equals(name)) {
      return Optional.empty(); // not canonical, e.g. 0000012.sst
    }
    return Optional.of(new ParsedName(type, number));
  }

  private static boolean isDigit(int c) {
    return c >= '0' && c <= '9';
  }

  private static String numbered(long number, String suffix) {
    if (number < 0) {
      throw new IllegalArgumentException("file number must be at least 0, was " + number);
    }
    return SstableFormat.fileNumberDigits(number) + suffix;
  }
}
