package dev.strata.engine.write;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A database's commit markers at one point of its history: named values outside the key space that
 * write batches set and remove atomically with their data (see {@code WriteBatch}). Names are
 * ordered as unsigned bytes. The engine keeps the current set in memory, captures it when a
 * memtable is frozen, and the flush of that memtable records exactly the captured set in the
 * manifest: a marker is durable in the manifest no earlier than the data written with it.
 *
 * <p>Immutable: {@link #apply} returns a new set. The arrays held are never handed out.
 */
public final class MarkerSet {

  /** The set of a database that never had a marker. */
  public static final MarkerSet EMPTY = new MarkerSet(new TreeMap<>(Arrays::compareUnsigned));

  /** Name to value, by name; never modified once the set is built. */
  private final TreeMap<byte[], byte[]> markers;

  private MarkerSet(TreeMap<byte[], byte[]> markers) {
    this.markers = markers;
  }

  /** The set after {@code updates}, applied in order (a later update of a name wins). */
  public MarkerSet apply(List<MarkerUpdate> updates) {
    if (updates.isEmpty()) {
      return this;
    }
    TreeMap<byte[], byte[]> next = new TreeMap<>(markers);
    for (int i = 0; i < updates.size(); i++) { // indexed: no iterator on the write path
      MarkerUpdate u = updates.get(i);
      if (u.isRemoval()) {
        next.remove(u.name());
      } else {
        next.put(u.name(), u.value());
      }
    }
    return new MarkerSet(next);
  }

  /** The number of names that {@code updates} would add to this set. */
  public int namesAddedBy(List<MarkerUpdate> updates) {
    TreeMap<byte[], Boolean> added = new TreeMap<>(Arrays::compareUnsigned);
    for (MarkerUpdate u : updates) {
      if (!markers.containsKey(u.name())) {
        added.put(u.name(), !u.isRemoval()); // the last update of a name decides
      }
    }
    int n = 0;
    for (boolean present : added.values()) {
      n += present ? 1 : 0;
    }
    return n;
  }

  /**
   * The updates that turn {@code older} into this set: a set for each name whose value differs
   * or is new, then a removal for each name only {@code older} has.
   */
  public List<MarkerUpdate> changesFrom(MarkerSet older) {
    List<MarkerUpdate> out = new ArrayList<>();
    for (Map.Entry<byte[], byte[]> e : markers.entrySet()) {
      byte[] was = older.markers.get(e.getKey());
      if (was == null || !Arrays.equals(was, e.getValue())) {
        out.add(new MarkerUpdate(e.getKey(), e.getValue()));
      }
    }
    for (byte[] name : older.markers.keySet()) {
      if (!markers.containsKey(name)) {
        out.add(MarkerUpdate.remove(name));
      }
    }
    return out;
  }

  /** The value of {@code name}, a copy; null when the set has no such marker. */
  public byte[] get(byte[] name) {
    byte[] v = markers.get(name);
    return v == null ? null : v.clone();
  }

  /** The number of markers. */
  public int size() {
    return markers.size();
  }

  /** True when the set holds no marker. */
  public boolean isEmpty() {
    return markers.isEmpty();
  }

  /** Every marker as a set update, by name: how the manifest's snapshot lists them. */
  public List<MarkerUpdate> asUpdates() {
    return changesFrom(EMPTY);
  }

  /** A copy of the markers, by name (unsigned bytes), the arrays copied too; unmodifiable. */
  public SortedMap<byte[], byte[]> toMap() {
    TreeMap<byte[], byte[]> copy = new TreeMap<>(Arrays::compareUnsigned);
    markers.forEach((k, v) -> copy.put(k.clone(), v.clone()));
    return Collections.unmodifiableSortedMap(copy);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof MarkerSet s && s.markers.size() == markers.size()
        && changesFrom(s).isEmpty();
  }

  @Override
  public int hashCode() {
    int h = 0;
    for (Map.Entry<byte[], byte[]> e : markers.entrySet()) {
      h += Arrays.hashCode(e.getKey()) ^ Arrays.hashCode(e.getValue());
    }
    return h;
  }

  @Override
  public String toString() {
    return "MarkerSet" + asUpdates();
  }
}
