package dev.strata.bench.tools;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;
import net.jpountz.lz4.LZ4Factory;

/**
 * The block layout of a Strata table that its public reader does not expose: each filter chunk's
 * handle and last key (from the FILTER_INDEX block) and each data block's handle (from the INDEX
 * block). Read independently from {@code FORMAT.md} section 3 (footer, block trailer, entries
 * block), the way {@code sst_dump} reads raw blocks; every block it reads is checked against its
 * masked CRC32C. For {@code inspect} only: {@code TableReader} stays the reader of record.
 *
 * <p>Immutable.
 *
 * @param filterChunks each filter chunk, in filter-key order
 * @param dataBlocks each data block, in key order
 */
record TableLayout(List<Chunk> filterChunks, List<Handle> dataBlocks) {
  private static final int FOOTER_BYTES = 64;
  private static final int TRAILER_BYTES = 5;
  private static final int HANDLE_BYTES = 12;
  private static final byte[] MAGIC = "STRATSST".getBytes(StandardCharsets.US_ASCII);
  private static final int TYPE_INDEX = 2;
  private static final int TYPE_FILTER_INDEX = 4;
  private static final int COMPRESSION_LZ4 = 1;

  /** Where a block lies: payload offset and payload length without its 5-byte trailer. */
  record Handle(long offset, int length) {}

  /**
   * A filter chunk: its handle and the cell key of its last filter key (row, and column under
   * ROWCOL).
   */
  record Chunk(Handle handle, byte[] lastRow, byte[] lastColumn) {}

  /** Reads the layout of {@code file}; an IOException names the file and offset of any damage. */
  static TableLayout read(Path file) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = ch.size();
      if (size < FOOTER_BYTES) {
        throw damaged(file, 0, "shorter than a footer");
      }
      ByteBuffer footer = readFully(ch, file, size - FOOTER_BYTES, FOOTER_BYTES);
      byte[] magic = new byte[MAGIC.length];
      footer.get(56, magic);
      if (!Arrays.equals(magic, MAGIC)) {
        throw damaged(file, size - FOOTER_BYTES, "no table magic");
      }
      byte[] covered = new byte[52];
      footer.get(0, covered);
      if (maskedCrc(covered, covered.length) != footer.getInt(52)) {
        throw damaged(file, size - FOOTER_BYTES, "footer checksum mismatch");
      }
      Handle index = handle(footer, 0);
      Handle filterIndex = handle(footer, 12);
      List<Chunk> chunks = new ArrayList<>();
      for (Entry e : entries(block(ch, file, filterIndex, TYPE_FILTER_INDEX), file, filterIndex)) {
        ByteBuffer k = ByteBuffer.wrap(e.key).order(ByteOrder.LITTLE_ENDIAN);
        int rowLength = Short.toUnsignedInt(k.getShort(0));
        chunks.add(new Chunk(handle(ByteBuffer.wrap(e.value).order(ByteOrder.LITTLE_ENDIAN), 0),
            Arrays.copyOfRange(e.key, 2, 2 + rowLength),
            Arrays.copyOfRange(e.key, 2 + rowLength, e.key.length)));
      }
      List<Handle> data = new ArrayList<>();
      for (Entry e : entries(block(ch, file, index, TYPE_INDEX), file, index)) {
        data.add(handle(ByteBuffer.wrap(e.value).order(ByteOrder.LITTLE_ENDIAN), 0));
      }
      return new TableLayout(List.copyOf(chunks), List.copyOf(data));
    }
  }

  private record Entry(byte[] key, byte[] value) {}

  private static Handle handle(ByteBuffer b, int at) {
    return new Handle(b.getLong(at), b.getInt(at + 8));
  }

  /** The payload of the block at {@code h}, checked and decompressed. */
  private static byte[] block(FileChannel ch, Path file, Handle h, int expectedType)
      throws IOException {
    ByteBuffer stored = readFully(ch, file, h.offset(), h.length() + TRAILER_BYTES);
    byte[] bytes = new byte[h.length() + TRAILER_BYTES];
    stored.get(0, bytes);
    if (maskedCrc(bytes, h.length() + 1) != stored.getInt(h.length() + 1)) {
      throw damaged(file, h.offset(), "block checksum mismatch");
    }
    int type = Byte.toUnsignedInt(bytes[h.length()]);
    if (type >>> 4 != expectedType) {
      throw damaged(file, h.offset(), "block type " + (type >>> 4) + ", expected " + expectedType);
    }
    byte[] payload = Arrays.copyOf(bytes, h.length());
    if ((type & 15) == COMPRESSION_LZ4) {
      int raw = stored.getInt(0);
      byte[] out = new byte[raw];
      LZ4Factory.fastestInstance().safeDecompressor().decompress(payload, 4, payload.length - 4, out, 0);
      return out;
    }
    return payload;
  }

  /** The entries of an entries block (shared-prefix keys, restart array at the end). */
  private static List<Entry> entries(byte[] p, Path file, Handle h) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(p).order(ByteOrder.LITTLE_ENDIAN);
    if (p.length < 4) {
      throw damaged(file, h.offset(), "entries block shorter than its count");
    }
    int restarts = b.getInt(p.length - 4);
    long end = p.length - 4 - 4L * restarts;
    if (restarts < 0 || end < 0) {
      throw damaged(file, h.offset(), "restart count " + restarts + " does not fit");
    }
    List<Entry> out = new ArrayList<>();
    byte[] key = new byte[0];
    int[] at = {0};
    while (at[0] < end) {
      int shared = varint(p, at, end, file, h);
      int unshared = varint(p, at, end, file, h);
      int valueLength = varint(p, at, end, file, h);
      if (shared > key.length || at[0] + (long) unshared + valueLength > end) {
        throw damaged(file, h.offset(), "entry runs past the block");
      }
      byte[] k = Arrays.copyOf(key, shared + unshared);
      System.arraycopy(p, at[0], k, shared, unshared);
      at[0] += unshared;
      out.add(new Entry(k, Arrays.copyOfRange(p, at[0], at[0] + valueLength)));
      at[0] += valueLength;
      key = k;
    }
    for (Entry e : out) {
      if (e.value.length != HANDLE_BYTES) {
        throw damaged(file, h.offset(), "handle of " + e.value.length + " bytes");
      }
    }
    return out;
  }

  private static int varint(byte[] p, int[] at, long end, Path file, Handle h) throws IOException {
    int value = 0;
    for (int shift = 0; shift < 35; shift += 7) {
      if (at[0] >= end) {
        break;
      }
      int b = p[at[0]++];
      value |= (b & 0x7f) << shift;
      if ((b & 0x80) == 0) {
        if (value < 0) {
          break;
        }
        return value;
      }
    }
    throw damaged(file, h.offset(), "malformed varint");
  }

  private static ByteBuffer readFully(FileChannel ch, Path file, long offset, int length)
      throws IOException {
    if (offset < 0 || length < 0 || offset + length > ch.size()) {
      throw damaged(file, offset, length + " bytes past the end of the file");
    }
    ByteBuffer b = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
    while (b.hasRemaining()) {
      if (ch.read(b, offset + b.position()) < 0) {
        throw damaged(file, offset, "unexpected end of file");
      }
    }
    return b.flip();
  }

  private static int maskedCrc(byte[] bytes, int length) {
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, length);
    int c = (int) crc.getValue();
    return ((c >>> 15) | (c << 17)) + 0xa282ead8;
  }

  private static IOException damaged(Path file, long offset, String what) {
    return new IOException(file + " at offset " + offset + ": " + what);
  }
}
