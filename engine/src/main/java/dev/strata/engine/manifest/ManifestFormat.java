package dev.strata.engine.manifest;

import dev.strata.checksum.Checksums;
import dev.strata.engine.CorruptionException;
import dev.strata.engine.FormatVersionException;
import dev.strata.engine.fs.ByteCursor;
import dev.strata.sstable.InternalKey;
import dev.strata.sstable.ValueKind;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The manifest's byte layout: one file, {@code MANIFEST}, holding the whole state, replaced
 * atomically on every change. All integers are little-endian, as in every Strata format; {@code crc} is a masked CRC32C ({@link
 * Checksums}).
 *
 * <pre>
 * Manifest := Header Body Footer
 * Header   := magic:u64 version:u32
 * Body     := nextFileNumber:u64 lastSequence:u64 logNumber:u64 fileCount:u32 File{fileCount}
 * File     := fileNumber:u64 level:u8 fileSize:u64 entryCount:u64
 *             smallestSequence:u64 largestSequence:u64 smallest:Key largest:Key
 * Key      := rowLength:u16 row columnLength:u16 column sequence:u64 kind:u8
 *             kind = ValueKind.id()
 * Footer   := crc:u32 magic:u64        crc = crc(Header Body)
 * </pre>
 *
 * <p><b>Why a whole-state file replaced atomically, and not an edit log with a CURRENT pointer.</b>
 * A replacement is one code path with no replay and no log compaction, and a reader checks one
 * checksum. Its cost is rewriting the table list on every flush and compaction; with tables of tens
 * of megabytes that list stays in the kilobytes. The replacement is: write {@code MANIFEST.tmp},
 * fsync it, rename it over {@code MANIFEST} with {@code ATOMIC_MOVE}, fsync the directory. A crash
 * leaves the old manifest or the new one, whole; a leftover {@code MANIFEST.tmp} is garbage. The
 * manifest is never torn, so any damage (a short file, a bad checksum, a field that does not parse
 * or breaks an invariant) is corruption.
 *
 * <p><b>The protocol that keeps every table.</b> A table is written and fsynced before a manifest
 * lists it; a table is deleted only after a durable manifest stopped listing it (and no reader pins
 * it); a log is deleted only after a durable manifest's {@code logNumber} passed it. On open, files
 * the manifest does not list (tables from an interrupted flush or compaction, temporary files, logs
 * below {@code logNumber}) are deleted. So a crash can neither lose a table the manifest lists nor
 * bring back one it dropped.
 *
 * <p>History: version 1 is the format above.
 *
 * <p>Thread-safe (stateless).
 */
public final class ManifestFormat {

  /** First and last bytes of the manifest: ASCII "STRATMAN". */
  public static final long MAGIC = 0x4E41_4D54_4152_5453L;

  /** The oldest format version this release reads. */
  public static final int VERSION_START = 1;

  /** The version this release writes. */
  public static final int VERSION_CURRENT = VERSION_START;

  /** The number of levels: level 0 (overlapping tables) and levels 1 to 6, as in LevelDB. */
  public static final int NUM_LEVELS = 7;

  /** Size of the header: magic and version. */
  public static final int HEADER_BYTES = 8 + 4;

  /** Size of the footer: crc and magic. */
  public static final int FOOTER_BYTES = 4 + 8;

  /** Size of a body's fixed part. */
  public static final int BODY_FIXED_BYTES = 8 + 8 + 8 + 4;

  /** Size of a File's fixed part, without its two keys. */
  public static final int FILE_FIXED_BYTES = 8 + 1 + 8 + 8 + 8 + 8;

  /** Size of a Key's fixed part, without its row and column. */
  public static final int KEY_FIXED_BYTES = 2 + 2 + 8 + 1;

  private ManifestFormat() {}

  /** The bytes of {@code m}; does not check its invariants (the writer does). */
  static byte[] encode(Manifest m) {
    long size = HEADER_BYTES + BODY_FIXED_BYTES + FOOTER_BYTES;
    for (FileMetadata f : m.files()) {
      size += FILE_FIXED_BYTES + keySize(f.smallest()) + keySize(f.largest());
    }
    if (size > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("manifest of " + size + " bytes is too large");
    }
    ByteBuffer b = ByteBuffer.allocate((int) size).order(ByteOrder.LITTLE_ENDIAN);
    b.putLong(MAGIC).putInt(VERSION_CURRENT);
    b.putLong(m.nextFileNumber()).putLong(m.lastSequence()).putLong(m.logNumber());
    b.putInt(m.files().size());
    for (FileMetadata f : m.files()) {
      b.putLong(f.fileNumber()).put((byte) f.level()).putLong(f.fileSize()).putLong(f.entryCount());
      b.putLong(f.smallestSequence()).putLong(f.largestSequence());
      putKey(b, f.smallest());
      putKey(b, f.largest());
    }
    b.putInt(Checksums.maskedCrc32c(b.array(), 0, b.position()));
    b.putLong(MAGIC);
    assert !b.hasRemaining() : b.remaining() + " bytes left";
    return b.array();
  }

  /**
   * Parses and checks the bytes of the manifest file {@code file}.
   *
   * @throws CorruptionException when they are damaged, do not parse or break an invariant
   * @throws FormatVersionException when they are intact but of an unsupported version
   */
  static Manifest decode(byte[] bytes, Path file)
      throws CorruptionException, FormatVersionException {
    if (bytes.length < HEADER_BYTES + BODY_FIXED_BYTES + FOOTER_BYTES) {
      throw new CorruptionException(file, 0, "manifest of %d bytes is too short", bytes.length);
    }
    int footer = bytes.length - FOOTER_BYTES;
    long trailingMagic = ByteBuffer.wrap(bytes, footer + 4, 8).order(ByteOrder.LITTLE_ENDIAN).getLong();
    if (trailingMagic != MAGIC) {
      throw new CorruptionException(
          file, footer + 4, "bad trailing magic %016x: truncated or not a manifest", trailingMagic);
    }
    int stored = ByteBuffer.wrap(bytes, footer, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
    int computed = Checksums.maskedCrc32c(bytes, 0, footer);
    if (stored != computed) {
      throw new CorruptionException(
          file,
          footer,
          "manifest checksum mismatch (stored %08x, computed %08x)",
          stored,
          computed);
    }
    ByteCursor in = new ByteCursor(bytes, 0, footer, file, 0, "manifest");
    long magic = in.u64("magic");
    if (magic != MAGIC) {
      throw in.corrupt(-8, "bad magic %016x", magic);
    }
    int version = in.i32("version");
    if (version < VERSION_START || version > VERSION_CURRENT) {
      throw new FormatVersionException(file, version, VERSION_START, VERSION_CURRENT);
    }
    long nextFileNumber = in.u64("nextFileNumber");
    long lastSequence = in.u64("lastSequence");
    long logNumber = in.u64("logNumber");
    long fileCount = in.u32("fileCount");
    long minFileBytes = FILE_FIXED_BYTES + 2L * (KEY_FIXED_BYTES + 1);
    if (fileCount > in.remaining() / minFileBytes) {
      throw in.corrupt(-4, "%d tables do not fit in %d bytes", fileCount, in.remaining());
    }
    List<FileMetadata> files = new ArrayList<>((int) fileCount);
    for (long i = 0; i < fileCount; i++) {
      long fileNumber = in.u64("fileNumber");
      int level = in.u8("level");
      long fileSize = in.u64("fileSize");
      long entryCount = in.u64("entryCount");
      long smallestSequence = in.u64("smallestSequence");
      long largestSequence = in.u64("largestSequence");
      InternalKey smallest = readKey(in);
      InternalKey largest = readKey(in);
      files.add(
          new FileMetadata(
              fileNumber,
              level,
              fileSize,
              entryCount,
              smallestSequence,
              largestSequence,
              smallest,
              largest));
    }
    if (in.remaining() != 0) {
      throw in.corrupt(0, "%d bytes after the last of %d tables", in.remaining(), fileCount);
    }
    Manifest m = new Manifest(nextFileNumber, lastSequence, logNumber, files);
    String problem = m.problem();
    if (problem != null) {
      throw new CorruptionException(
          file, HEADER_BYTES, "manifest breaks an invariant: %s", problem);
    }
    return m;
  }

  private static long keySize(InternalKey k) {
    return KEY_FIXED_BYTES + (long) k.row().length + k.column().length;
  }

  private static void putKey(ByteBuffer b, InternalKey k) {
    b.putShort((short) k.row().length).put(k.row());
    b.putShort((short) k.column().length).put(k.column());
    b.putLong(k.sequence()).put((byte) k.kind().id());
  }

  private static InternalKey readKey(ByteCursor in) throws CorruptionException {
    byte[] row = in.bytes(in.u16("rowLength"), "row");
    byte[] column = in.bytes(in.u16("columnLength"), "column");
    long sequence = in.u64("sequence");
    if (sequence < 0 || sequence > InternalKey.MAX_SEQUENCE) {
      throw in.corrupt(-8, "key sequence %d out of range", sequence);
    }
    int kindId = in.u8("kind");
    ValueKind kind = ValueKind.fromIdOrNull(kindId);
    if (kind == null) {
      throw in.corrupt(-1, "unknown kind id %d", kindId);
    }
    return new InternalKey(row, column, sequence, kind);
  }
}
