package dev.strata.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.strata.engine.log.LogFormat;
import dev.strata.engine.write.Limits;
import dev.strata.engine.write.Mutation;
import dev.strata.sstable.key.ValueKind;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

final class WriteBatchTest {

  private static final byte[] R = {1};
  private static final byte[] C = {2};
  private static final byte[] V = {3};

  @Test
  void put_delete_deleteRow_returnThisAndKeepOrder() {
    WriteBatch b = new WriteBatch();
    assertSame(b, b.put(R, C, V));
    assertSame(b, b.delete(R, C));
    assertSame(b, b.deleteRow(R));
    assertEquals(3, b.size());
    assertEquals(
        List.of(Mutation.put(R, C, V), Mutation.delete(R, C), Mutation.deleteRow(R)),
        b.mutations());
    long expected = 0;
    for (Mutation m : b.mutations()) {
      expected += LogFormat.encodedSize(m);
    }
    assertEquals(expected, b.approximateBytes());
  }

  @Test
  void put_copiesArrays_callerMayReuseThem() {
    byte[] row = {1, 2};
    byte[] column = {3};
    byte[] value = {4, 5, 6};
    WriteBatch b = new WriteBatch().put(row, column, value);
    row[0] = 9;
    column[0] = 9;
    value[0] = 9;
    Mutation m = b.mutations().get(0);
    assertArrayEquals(new byte[] {1, 2}, m.row());
    assertArrayEquals(new byte[] {3}, m.column());
    assertArrayEquals(new byte[] {4, 5, 6}, m.value());
    assertEquals(ValueKind.PUT, m.kind());
  }

  @Test
  void nullArguments_throwNpeNamingTheArgument() {
    WriteBatch b = new WriteBatch();
    assertNpe("row", () -> b.put(null, C, V));
    assertNpe("column", () -> b.put(R, null, V));
    assertNpe("value", () -> b.put(R, C, null));
    assertNpe("row", () -> b.delete(null, C));
    assertNpe("column", () -> b.delete(R, null));
    assertNpe("row", () -> b.deleteRow(null));
    // Null checks come before length checks.
    assertNpe("column", () -> b.put(new byte[0], null, V));
    assertEquals(0, b.size());
  }

  @Test
  void badLengths_throwIaeNamingTheLimit_andChangeNothing() {
    WriteBatch b = new WriteBatch().put(R, C, V);
    long bytes = b.approximateBytes();
    byte[] longRow = new byte[Limits.MAX_ROW_LENGTH + 1];
    byte[] longColumn = new byte[Limits.MAX_COLUMN_LENGTH + 1];
    assertIae("MAX_ROW_LENGTH", () -> b.put(new byte[0], C, V));
    assertIae("MAX_ROW_LENGTH", () -> b.put(longRow, C, V));
    assertIae("MAX_COLUMN_LENGTH", () -> b.put(R, longColumn, V));
    assertIae("MAX_ROW_LENGTH", () -> b.delete(new byte[0], C));
    assertIae("MAX_COLUMN_LENGTH", () -> b.delete(R, longColumn));
    assertIae("MAX_ROW_LENGTH", () -> b.deleteRow(new byte[0]));
    assertIae("MAX_ROW_LENGTH", () -> b.deleteRow(longRow));
    assertIae("MAX_VALUE_LENGTH", () -> b.put(R, C, new byte[Limits.MAX_VALUE_LENGTH + 1]));
    assertEquals(1, b.size());
    assertEquals(bytes, b.approximateBytes());
  }

  @Test
  void put_acceptsEveryLimitExactly() {
    byte[] row = new byte[Limits.MAX_ROW_LENGTH];
    byte[] column = new byte[Limits.MAX_COLUMN_LENGTH];
    WriteBatch b = new WriteBatch();
    b.put(row, column, new byte[Limits.MAX_VALUE_LENGTH]);
    b.put(R, new byte[0], new byte[0]).delete(row, column).deleteRow(row);
    assertEquals(4, b.size());
    assertEquals(Limits.MAX_VALUE_LENGTH, b.mutations().get(0).value().length);
  }

  @Test
  void clear_emptiesTheBatch() {
    WriteBatch b = new WriteBatch().put(R, C, V).deleteRow(R);
    assertSame(b, b.clear());
    assertEquals(0, b.size());
    assertTrue(b.isEmpty());
    assertEquals(0, b.approximateBytes());
  }

  @Test
  void mutations_isUnmodifiable() {
    WriteBatch b = new WriteBatch().put(R, C, V);
    assertThrows(UnsupportedOperationException.class, () -> b.mutations().clear());
  }

  static void assertNpe(String argument, Executable call) {
    NullPointerException e = assertThrows(NullPointerException.class, call);
    assertTrue(e.getMessage().contains(argument), e.getMessage());
  }

  static void assertIae(String limit, Executable call) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
    assertTrue(e.getMessage().contains(limit), e.getMessage());
  }
}
