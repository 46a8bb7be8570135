package dev.strata.bench.levels;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The fill and the absent Gets of {@code filterlevels}: random puts from a seeded generator, a
 * flush (and its compactions) every {@code flushKeys} keys, then Gets of keys never written. Every
 * configuration, of either engine, gets the same keys in the same order.
 *
 * <p>Immutable; each {@link #fill} starts a new generator, and {@link #absentGets} continues it.
 */
record FilterWorkload(int keys, int valueBytes, int gets, int flushKeys, long seed) {

  /** Fills {@code target}; returns the generator the absent Gets continue from. */
  SplittableRandom fill(FilterTarget target) throws IOException, InterruptedException {
    SplittableRandom random = new SplittableRandom(seed);
    byte[] value = new byte[valueBytes];
    for (int i = 0; i < keys; i++) {
      random.nextBytes(value);
      target.put(key(random.nextLong(keys), false), value);
      if ((i + 1) % flushKeys == 0 || i == keys - 1) {
        target.flushAndSettle();
      }
    }
    return random;
  }

  /** Runs the {@link #gets} absent Gets on {@code target}, drawing from {@code random}. */
  void absentGets(FilterTarget target, SplittableRandom random) throws IOException {
    for (int i = 0; i < gets; i++) {
      target.get(key(random.nextLong(keys), true));
    }
  }

  /** Key {@code i}: present keys end in 'p', absent ones in 'a', so no absent key was written. */
  static byte[] key(long i, boolean absent) {
    return String.format(Locale.ROOT, "key%012d%c", i, absent ? 'a' : 'p')
        .getBytes(StandardCharsets.UTF_8);
  }
}
