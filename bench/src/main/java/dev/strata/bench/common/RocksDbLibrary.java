package dev.strata.bench.common;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.NativeLibraryLoader;
import org.rocksdb.RocksDB;

/**
 * Loads rocksdbjni's native library from a folder the run owns, and names the table format every
 * RocksDB setup of the benchmarks uses.
 *
 * <p>Thread-safe (loading twice is a no-op in rocksdbjni).
 */
public final class RocksDbLibrary {
  /** Oldest table format used: 5 brought the cache-local FastLocalBloom filter. */
  private static final int MIN_FORMAT_VERSION = 5;

  private RocksDbLibrary() {}

  /**
   * Loads the JNI library, extracting it into {@code dir} rather than the system temporary folder,
   * so a run writes nothing outside its output folder. Call before any other RocksDB class is used.
   */
  public static void load(Path dir) throws IOException {
    Files.createDirectories(dir);
    NativeLibraryLoader.getInstance().loadLibrary(dir.toString());
    RocksDB.loadLibrary();
  }

  /** The table format version every RocksDB setup uses: the library's default, at least 5. */
  public static int formatVersion() {
    return Math.max(MIN_FORMAT_VERSION, new BlockBasedTableConfig().formatVersion());
  }
}
