package dev.strata.sstable.testing;

import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.ValueKind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;

/**
 * Generates sorted, duplicate-free table entries from a seeded {@link Random}: binary rows and
 * columns (all 256 byte values, so unsigned order matters), rows sharing long prefixes, empty columns,
 * empty and large values, several versions per cell, and cell and row tombstones (row tombstones under
 * the empty column, as the engine writes them).
 *
 * <p>Not thread-safe (one generator per test).
 */
public final class RandomCells {
  private static final byte[] EMPTY = new byte[0];

  private final Random random;
  private int maxValueBytes = 64;
  private double largeValueChance = 0.01;
  private int largeValueBytes = 20_000;
  private double rowTombstoneChance = 0.05;
  private double deleteChance = 0.1;

  public RandomCells(Random random) {
    this.random = random;
  }

  /** Values are 0..bytes long (plus the occasional large value). */
  public RandomCells maxValueBytes(int bytes) {
    this.maxValueBytes = bytes;
    return this;
  }

  /** How often a value is {@code largeValueBytes} long. */
  public RandomCells largeValues(double chance, int bytes) {
    this.largeValueChance = chance;
    this.largeValueBytes = bytes;
    return this;
  }

  /** How often a row gets a row tombstone, and a cell entry is a cell tombstone. */
  public RandomCells tombstones(double rowChance, double cellChance) {
    this.rowTombstoneChance = rowChance;
    this.deleteChance = cellChance;
    return this;
  }

  /** About {@code n} entries (at least one) in {@link InternalKey#ORDER}, no two with the same key. */
  public List<Entry> entries(int n) {
    TreeSet<byte[]> rowSet = new TreeSet<>(Arrays::compareUnsigned);
    int rowCount = Math.max(1, n / (1 + random.nextInt(8)));
    byte[] prefix = bytes(random.nextInt(4) == 0 ? 100 + random.nextInt(200) : random.nextInt(4));
    while (rowSet.size() < rowCount) {
      byte[] tail = bytes(1 + random.nextInt(random.nextInt(3) == 0 ? 40 : 6));
      byte[] row = random.nextBoolean() ? concat(prefix, tail) : tail;
      rowSet.add(row);
    }
    List<Entry> out = new ArrayList<>();
    long seq = 1;
    for (byte[] row : rowSet) {
      TreeSet<byte[]> columns = new TreeSet<>(Arrays::compareUnsigned);
      int columnCount = 1 + random.nextInt(Math.max(1, 2 * n / rowCount));
      if (random.nextInt(3) == 0) {
        columns.add(EMPTY);
      }
      while (columns.size() < columnCount) {
        columns.add(bytes(random.nextInt(3) == 0 ? random.nextInt(30) : random.nextInt(4)));
      }
      boolean rowTombstone = random.nextDouble() < rowTombstoneChance;
      if (rowTombstone) {
        columns.add(EMPTY);
      }
      for (byte[] column : columns) {
        int versions = 1 + (random.nextInt(4) == 0 ? random.nextInt(4) : 0);
        boolean withTombstone = rowTombstone && column.length == 0;
        int tombstoneAt = withTombstone ? random.nextInt(versions + 1) : -1;
        List<Entry> cell = new ArrayList<>();
        for (int v = 0; v < versions + (withTombstone ? 1 : 0); v++) {
          seq += 1 + random.nextInt(3);
          cell.add(v == tombstoneAt
              ? new Entry(new InternalKey(row, EMPTY, seq, ValueKind.DELETE_ROW), EMPTY)
              : entry(row, column, seq));
        }
        cell.sort((a, b) -> InternalKey.compare(a.key(), b.key()));
        out.addAll(cell);
      }
    }
    return out;
  }

  private Entry entry(byte[] row, byte[] column, long seq) {
    if (random.nextDouble() < deleteChance) {
      return new Entry(new InternalKey(row, column, seq, ValueKind.DELETE), EMPTY);
    }
    int len = random.nextDouble() < largeValueChance ? largeValueBytes : random.nextInt(maxValueBytes + 1);
    return new Entry(new InternalKey(row, column, seq, ValueKind.PUT), bytes(len));
  }

  /** {@code n} random bytes, biased towards a few values so prefixes repeat. */
  public byte[] bytes(int n) {
    byte[] b = new byte[n];
    boolean small = random.nextBoolean();
    for (int i = 0; i < n; i++) {
      b[i] = (byte) (small ? random.nextInt(4) * 0x55 : random.nextInt(256));
    }
    return b;
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] c = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, c, a.length, b.length);
    return c;
  }
}
