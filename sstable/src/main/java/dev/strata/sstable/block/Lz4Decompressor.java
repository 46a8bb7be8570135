package dev.strata.sstable.block;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/**
 * Decompresses LZ4 blocks: with lz4-java's fastest decompressor once it has loaded, and with
 * {@link Lz4BlockDecoder} until then.
 *
 * <p>Why: lz4-java's fastest instance extracts its native library from its jar into a temporary
 * file (seeding a {@code SecureRandom} for the name) and loads it, tens of milliseconds in a fresh
 * JVM, and the first read that needs it would wait for all of that. So decompressions use the
 * library's own pure-Java decoder, which loads no native library, until the native one has loaded
 * on a thread of its own, which ends then; both decode the same bytes to the same output, and both throw {@link
 * LZ4Exception} on damaged input. That thread starts after the {@link #DECODES_BEFORE_LOAD}th
 * plain decode, not the first: the first reads after an open load their own classes from the
 * same jar, and the library's extraction would compete with them for it and for the CPU. Nothing
 * is loaded before a compressed block is read, unless an open asks for it ({@link #load}).
 *
 * <p>Thread-safe: the loaded decompressor is published through a volatile field, and only one
 * thread ever loads it.
 */
public final class Lz4Decompressor {
  /** Plain decodes after which the native decoder starts loading. */
  static final int DECODES_BEFORE_LOAD = 64;

  private static final AtomicBoolean LOADING = new AtomicBoolean();
  /** Plain decodes so far, counted until the loading starts. */
  private static final AtomicInteger PLAIN_DECODES = new AtomicInteger();
  /** lz4-java's fastest decompressor once loaded; null before. */
  private static volatile LZ4SafeDecompressor loaded;

  private Lz4Decompressor() {}

  /** Loads lz4-java's fastest decompressor now, if it is not loaded yet; returns when it is. */
  public static void load() {
    LOADING.set(true); // no loading thread after this: it would find the work done
    loaded = Holder.DECOMPRESSOR;
  }

  /** Whether lz4-java's decompressor has loaded (so decompressions use it). */
  public static boolean isLoaded() {
    return loaded != null;
  }

  /**
   * Decompresses the LZ4 block {@code src[srcOff, srcOff + srcLen)} into {@code dest} from {@code
   * destOff}, at most {@code maxDestLen} bytes; returns how many it wrote.
   *
   * @throws LZ4Exception when the input is damaged or decodes to more than {@code maxDestLen}
   */
  public static int decompress(byte[] src, int srcOff, int srcLen, byte[] dest, int destOff, int maxDestLen) {
    LZ4SafeDecompressor d = loaded;
    if (d != null) {
      return d.decompress(src, srcOff, srcLen, dest, destOff, maxDestLen);
    }
    try {
      return Lz4BlockDecoder.decode(src, srcOff, srcLen, dest, destOff, maxDestLen);
    } finally {
      if (!LOADING.get() && PLAIN_DECODES.incrementAndGet() >= DECODES_BEFORE_LOAD) {
        startLoading();
      }
    }
  }

  private static void startLoading() {
    if (!LOADING.compareAndSet(false, true)) {
      return;
    }
    Thread t = new Thread(Lz4Decompressor::loadQuietly, "strata-lz4-load");
    t.setDaemon(true);
    t.start();
  }

  private static void loadQuietly() {
    try {
      load();
    } catch (RuntimeException | LinkageError e) {
      // lz4-java falls back to its Java decoders itself; a failure beyond that leaves the plain
      // decoder in use, which decodes the same bytes
    }
  }

  /** Initialised on the first {@link #load}: the JVM's lazy holder idiom. */
  private static final class Holder {
    static final LZ4SafeDecompressor DECOMPRESSOR = LZ4Factory.fastestInstance().safeDecompressor();
  }
}
