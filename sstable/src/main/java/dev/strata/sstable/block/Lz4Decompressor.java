package dev.strata.sstable.block;

import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/**
 * The LZ4 decompressor of data blocks, made on first use rather than when the first table opens.
 *
 * <p>Why: lz4-java's fastest instance extracts and loads a native library, tens of milliseconds in
 * a fresh JVM. Opening a table reads no compressed block (only data blocks are compressed), so the load can
 * wait for the first data block, and a database can start it on another thread at open ({@link
 * #load}), where it overlaps the open's own I/O instead of adding to the first Get.
 *
 * <p>Thread-safe (the JVM initialises the holder once; a reader that needs it meanwhile waits).
 */
public final class Lz4Decompressor {
  private Lz4Decompressor() {}

  /** Loads the decompressor now, if it is not loaded yet; returns when it is. */
  public static void load() {
    get();
  }

  public static LZ4SafeDecompressor get() {
    return Holder.DECOMPRESSOR;
  }

  /** Initialised on the first {@link #get}: the JVM's lazy holder idiom. */
  private static final class Holder {
    static final LZ4SafeDecompressor DECOMPRESSOR = LZ4Factory.fastestInstance().safeDecompressor();
  }
}
