package dev.strata.sstable.index;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.KeyCodec;
import dev.strata.sstable.key.ValueKind;
import dev.strata.sstable.testing.Seeded;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The separators of version-3 index entries keep the one invariant a seek relies on, {@code last <=
 * S < next} in {@link InternalKey#ORDER}, over keys drawn from bytes at the edges (0x00, 0x01, 0xfe,
 * 0xff) and plain ones, equal and prefix rows and columns, any sequence and kind; the byte-string
 * separator is the shortest there is (checked by brute force over every shorter string).
 */
final class IndexSeparatorsProperties {
  private static final byte[] ALPHABET = {0x00, 0x01, 0x02, 0x41, (byte) 0xfe, (byte) 0xff};

  @Test
  void separator_liesBetweenTheBlocks() {
    Seeded.run("index separator between keys", 2000, random -> {
      InternalKey a = randomKey(random);
      InternalKey b = random.nextInt(4) == 0 ? near(a, random) : randomKey(random);
      int c = InternalKey.compare(a, b);
      if (c == 0) {
        return;
      }
      InternalKey last = c < 0 ? a : b;
      InternalKey next = c < 0 ? b : a;
      InternalKey s = IndexSeparators.separator(last, next);
      assertTrue(InternalKey.compare(last, s) <= 0, s + " below " + last);
      assertTrue(InternalKey.compare(s, next) < 0, s + " not below " + next);
      assertTrue(KeyCodec.internalKeyLength(s) <= KeyCodec.internalKeyLength(last), "longer: " + s);
      InternalKey succ = IndexSeparators.successor(last);
      assertTrue(InternalKey.compare(last, succ) <= 0, succ + " below " + last);
      assertTrue(KeyCodec.internalKeyLength(succ) <= KeyCodec.internalKeyLength(last), "longer: " + succ);
    });
  }

  @Test
  void shortestBetween_isTheShortestStringInRange() {
    Seeded.run("shortest separator is shortest", 150, random -> {
      byte[] a = bytes(random, random.nextInt(5));
      byte[] b = bytes(random, random.nextInt(5));
      int c = Arrays.compareUnsigned(a, b);
      if (c == 0) {
        return;
      }
      byte[] lo = c < 0 ? a : b;
      byte[] hi = c < 0 ? b : a;
      byte[] s = IndexSeparators.shortestBetween(lo, hi);
      assertTrue(Arrays.compareUnsigned(lo, s) <= 0 && Arrays.compareUnsigned(s, hi) < 0, hex(s));
      // Every string shorter than s (at most two bytes: s is never longer than three here) lies outside.
      for (int len = 0; len < Math.min(s.length, 3); len++) {
        byte[] t = new byte[len];
        for (int v = 0; v < 1 << (8 * len); v++) {
          for (int i = 0; i < len; i++) {
            t[i] = (byte) (v >>> (8 * i));
          }
          assertFalse(Arrays.compareUnsigned(lo, t) <= 0 && Arrays.compareUnsigned(t, hi) < 0,
              hex(t) + " is shorter than " + hex(s) + " in [" + hex(lo) + ", " + hex(hi) + ")");
        }
      }
    });
  }

  private static InternalKey randomKey(Random random) {
    return new InternalKey(bytes(random, random.nextInt(5)), bytes(random, random.nextInt(4)),
        random.nextBoolean() ? InternalKey.MAX_SEQUENCE - random.nextInt(3) : random.nextInt(5),
        ValueKind.values()[random.nextInt(ValueKind.values().length)]);
  }

  /** A key sharing the row (and maybe the column) of {@code k}, or extending its row. */
  private static InternalKey near(InternalKey k, Random random) {
    return switch (random.nextInt(3)) {
      case 0 -> new InternalKey(k.row(), k.column(), random.nextInt(5), ValueKind.PUT);
      case 1 -> new InternalKey(k.row(), bytes(random, random.nextInt(4)), k.sequence(), k.kind());
      default -> new InternalKey(concat(k.row(), bytes(random, 1 + random.nextInt(2))), k.column(),
          k.sequence(), k.kind());
    };
  }

  private static byte[] bytes(Random random, int n) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = random.nextBoolean() ? ALPHABET[random.nextInt(ALPHABET.length)] : (byte) random.nextInt(256);
    }
    return b;
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] c = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, c, a.length, b.length);
    return c;
  }

  private static String hex(byte[] b) {
    return HexFormat.of().formatHex(b);
  }
}
