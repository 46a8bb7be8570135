package dev.strata.bench.ycsb;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;

/**
 * The one value both bindings store for a YCSB record: its fields in the order given, each as
 * {@code nameLength:u16 name:UTF-8 valueLength:i32 value}. A record of 10 fields of 100 bytes is
 * one value of about 1.1 KB, so both engines see the same bytes.
 *
 * <p>Immutable (static methods only).
 */
final class RecordCodec {
  private RecordCodec() {}

  /** The value holding {@code fields}; their iterators are consumed. */
  static byte[] encode(Map<String, ByteIterator> fields) {
    byte[][] names = new byte[fields.size()][];
    byte[][] values = new byte[fields.size()][];
    int size = 0;
    int i = 0;
    for (Map.Entry<String, ByteIterator> f : fields.entrySet()) {
      names[i] = f.getKey().getBytes(StandardCharsets.UTF_8);
      values[i] = f.getValue().toArray();
      size += Short.BYTES + names[i].length + Integer.BYTES + values[i].length;
      i++;
    }
    ByteBuffer out = ByteBuffer.allocate(size);
    for (int j = 0; j < names.length; j++) {
      out.putShort((short) names[j].length).put(names[j]).putInt(values[j].length).put(values[j]);
    }
    return out.array();
  }

  /**
   * Adds the fields of {@code value} named in {@code wanted} (all when null) to {@code into}.
   * IllegalArgumentException when the bytes are not a record of this codec.
   */
  static void decode(byte[] value, Set<String> wanted, Map<String, ByteIterator> into) {
    ByteBuffer in = ByteBuffer.wrap(value);
    try {
      while (in.hasRemaining()) {
        byte[] name = new byte[Short.toUnsignedInt(in.getShort())];
        in.get(name);
        byte[] bytes = new byte[in.getInt()];
        in.get(bytes);
        String field = new String(name, StandardCharsets.UTF_8);
        if (wanted == null || wanted.contains(field)) {
          into.put(field, new ByteArrayByteIterator(bytes));
        }
      }
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("not a YCSB record of " + value.length + " bytes", e);
    }
  }
}
