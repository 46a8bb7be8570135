package dev.strata.engine.manifest;

import dev.strata.engine.write.Limits;
import dev.strata.engine.write.MarkerSet;
import dev.strata.engine.write.MarkerUpdate;
import dev.strata.sstable.filter.FilterKind;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.ValueKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Seeded generator of valid manifests. Not thread-safe. */
final class ManifestGens {

  private ManifestGens() {}

  static Manifest manifest(Random r, int tables) {
    long lastSequence = 1000 + r.nextInt(1_000_000);
    List<FileMetadata> files = new ArrayList<>();
    long number = 1 + r.nextInt(10);
    // Disjoint row ranges per level from 1 down: level L uses rows "L-<counter>" in order.
    int[] counters = new int[ManifestFormat.NUM_LEVELS];
    for (int i = 0; i < tables; i++) {
      int level = r.nextInt(ManifestFormat.NUM_LEVELS);
      byte[] lo;
      byte[] hi;
      if (level == 0) {
        lo = row(r, "a");
        hi = row(r, "z");
      } else {
        lo = String.format("%d-%06d", level, counters[level]++).getBytes();
        hi = String.format("%d-%06d", level, counters[level]++).getBytes();
      }
      long s1 = r.nextInt((int) lastSequence);
      long s2 = s1 + r.nextInt((int) (lastSequence - s1) + 1);
      InternalKey smallest = new InternalKey(lo, column(r), r.nextInt(1 + (int) s2), kind(r));
      InternalKey largest = new InternalKey(hi, column(r), r.nextInt(1 + (int) s2), kind(r));
      FilterKind filterKind = r.nextBoolean() ? null : FilterKind.BLOOM;
      files.add(
          new FileMetadata(
              number,
              level,
              r.nextInt(Integer.MAX_VALUE) * 8L,
              r.nextInt(1 << 24),
              s1,
              s2,
              smallest,
              largest,
              r.nextInt(4) == 0 ? FileMetadata.UNKNOWN_FILTER_BYTES : r.nextInt(1 << 20),
              filterKind,
              filterKind == null ? 0 : 1 + 63 * r.nextDouble())); // bits in [1, 64] with a kind
      number += 1 + r.nextInt(3);
    }
    long logNumber = number + r.nextInt(3);
    List<MarkerUpdate> markers = new ArrayList<>();
    for (int i = r.nextInt(4) == 0 ? 0 : r.nextInt(20); i > 0; i--) {
      byte[] name = new byte[1 + r.nextInt(Limits.MAX_COMMIT_MARKER_NAME_LENGTH)];
      byte[] value = new byte[r.nextInt(64)];
      r.nextBytes(name);
      r.nextBytes(value);
      markers.add(new MarkerUpdate(name, value));
    }
    return new Manifest(logNumber + 1 + r.nextInt(5), lastSequence, logNumber, files, List.of(),
        MarkerSet.EMPTY.apply(markers));
  }

  private static byte[] row(Random r, String prefix) {
    byte[] suffix = new byte[r.nextInt(20)];
    r.nextBytes(suffix);
    byte[] out = new byte[1 + suffix.length];
    out[0] = (byte) prefix.charAt(0);
    System.arraycopy(suffix, 0, out, 1, suffix.length);
    return out;
  }

  private static byte[] column(Random r) {
    byte[] c = new byte[r.nextInt(8)];
    r.nextBytes(c);
    return c;
  }

  private static ValueKind kind(Random r) {
    return ValueKind.values()[r.nextInt(ValueKind.values().length)];
  }
}
