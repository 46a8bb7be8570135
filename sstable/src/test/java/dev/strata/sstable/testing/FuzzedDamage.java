package dev.strata.sstable.testing;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import java.util.Arrays;

/**
 * Damage drawn from a fuzzer's input, for the {@code @FuzzTest}s of the file formats: fuzzed bytes
 * written over a real encoding from a fuzzed offset, then maybe a cut at a fuzzed length.
 *
 * <p>Thread-safe (stateless).
 */
public final class FuzzedDamage {
  private FuzzedDamage() {}

  /**
   * Damaged bytes.
   *
   * @param bytes the damaged copy
   * @param intactPrefix how many leading bytes of the original it still holds unwritten
   */
  public record Damaged(byte[] bytes, int intactPrefix) {}

  /**
   * Writes fuzzed bytes over a copy of {@code original} from a fuzzed offset, growing it by up to
   * {@code maxGrowth} bytes, then, if the input says so, cuts it at a fuzzed length. Consumes, in
   * order: the offset, the bytes, whether to cut, the cut.
   */
  public static Damaged overwrite(byte[] original, int maxGrowth, FuzzedDataProvider data) {
    int from = data.consumeInt(0, original.length);
    byte[] patch = data.consumeBytes(original.length + maxGrowth - from);
    byte[] damaged = Arrays.copyOf(original, Math.max(original.length, from + patch.length));
    System.arraycopy(patch, 0, damaged, from, patch.length);
    if (!data.consumeBoolean()) {
      return new Damaged(damaged, from);
    }
    int cut = data.consumeInt(0, damaged.length);
    return new Damaged(Arrays.copyOf(damaged, cut), Math.min(from, cut));
  }
}
