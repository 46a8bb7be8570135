package dev.strata.engine.write;

import dev.strata.engine.CorruptionException;
import dev.strata.engine.fs.ByteCursor;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The bytes of commit marker updates, the same in a log record and in a manifest record (each
 * format puts its own count before them):
 *
 * <pre>
 * Marker := nameLength:u16 name present:u8 [valueLength:u32 value]
 *           present 1 sets the marker to value, 0 removes it (no value follows)
 * </pre>
 *
 * Decoding trusts nothing: lengths out of the limits and a presence byte other than 0 or 1 are a
 * {@link CorruptionException} naming the file and offset.
 *
 * <p>Thread-safe (stateless).
 */
public final class MarkerCodec {
  private MarkerCodec() {}

  /** The bytes {@code u} takes. */
  public static long size(MarkerUpdate u) {
    return 2 + (long) u.name().length + 1 + (u.isRemoval() ? 0 : 4 + (long) u.value().length);
  }

  /** The bytes {@code updates} take, their count not included. */
  public static long size(List<MarkerUpdate> updates) {
    long size = 0;
    for (int i = 0; i < updates.size(); i++) { // indexed: no iterator on the write path
      size += size(updates.get(i));
    }
    return size;
  }

  /** Puts {@code updates} into {@code b}, a little-endian buffer with room, their count not included. */
  public static void put(ByteBuffer b, List<MarkerUpdate> updates) {
    for (int i = 0; i < updates.size(); i++) {
      MarkerUpdate u = updates.get(i);
      b.putShort((short) u.name().length).put(u.name());
      b.put((byte) (u.isRemoval() ? 0 : 1));
      if (!u.isRemoval()) {
        b.putInt(u.value().length).put(u.value());
      }
    }
  }

  /**
   * Reads {@code count} updates, each checked against the limits of names and values.
   *
   * @throws CorruptionException when they do not parse or break a limit
   */
  public static List<MarkerUpdate> read(ByteCursor in, long count) throws CorruptionException {
    if (count > in.remaining() / 4) { // every marker takes at least 4 bytes
      throw in.corrupt(0, "%d commit markers do not fit in %d bytes", count, in.remaining());
    }
    List<MarkerUpdate> markers = new ArrayList<>((int) count);
    for (long i = 0; i < count; i++) {
      int nameLength = in.u16("markerNameLength");
      if (nameLength == 0 || nameLength > Limits.MAX_COMMIT_MARKER_NAME_LENGTH) {
        throw in.corrupt(-2, "marker name length %d out of range in marker %d", nameLength, i);
      }
      byte[] name = in.bytes(nameLength, "markerName");
      int present = in.u8("markerPresent");
      if (present > 1) {
        throw in.corrupt(-1, "marker presence %d is neither 0 nor 1 in marker %d", present, i);
      }
      if (present == 0) {
        markers.add(MarkerUpdate.remove(name));
        continue;
      }
      long valueLength = in.u32("markerValueLength");
      if (valueLength > Limits.MAX_COMMIT_MARKER_VALUE_LENGTH) {
        throw in.corrupt(-4, "marker value length %d out of range in marker %d", valueLength, i);
      }
      markers.add(new MarkerUpdate(name, in.bytes((int) valueLength, "markerValue")));
    }
    return markers;
  }
}
