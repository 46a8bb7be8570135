package dev.strata.engine.manifest;

import static dev.strata.engine.manifest.ManifestFormat.BODY_FIXED_BYTES;
import static dev.strata.engine.manifest.ManifestFormat.EDIT;
import static dev.strata.engine.manifest.ManifestFormat.FILE2_FIXED_BYTES;
import static dev.strata.engine.manifest.ManifestFormat.FILE3_FIXED_BYTES;
import static dev.strata.engine.manifest.ManifestFormat.FILE_FIXED_BYTES;
import static dev.strata.engine.manifest.ManifestFormat.FOOTER_BYTES;
import static dev.strata.engine.manifest.ManifestFormat.HEADER1_BYTES;
import static dev.strata.engine.manifest.ManifestFormat.HEADER_BYTES;
import static dev.strata.engine.manifest.ManifestFormat.KEY_FIXED_BYTES;
import static dev.strata.engine.manifest.ManifestFormat.MAGIC;
import static dev.strata.engine.manifest.ManifestFormat.RECORD_HEADER_BYTES;
import static dev.strata.engine.manifest.ManifestFormat.SECTOR_BYTES;
import static dev.strata.engine.manifest.ManifestFormat.SNAPSHOT;
import static dev.strata.engine.manifest.ManifestFormat.SYNCED_LOG_BYTES;
import static dev.strata.engine.manifest.ManifestFormat.VERSION_CURRENT;
import static dev.strata.engine.manifest.ManifestFormat.VERSION_FILTER_SHAPES;
import static dev.strata.engine.manifest.ManifestFormat.VERSION_MARKERS;
import static dev.strata.engine.manifest.ManifestFormat.VERSION_START;
import static dev.strata.engine.manifest.ManifestFormat.VERSION_SYNCED_LOGS;

import dev.strata.checksum.Checksums;
import dev.strata.engine.CorruptionException;
import dev.strata.engine.FormatVersionException;
import dev.strata.engine.fs.ByteCursor;
import dev.strata.engine.write.MarkerCodec;
import dev.strata.engine.write.MarkerSet;
import dev.strata.engine.write.MarkerUpdate;
import dev.strata.sstable.filter.FilterKind;
import dev.strata.sstable.key.InternalKey;
import dev.strata.sstable.key.ValueKind;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Parses and checks the bytes of a manifest file of any version this release reads, by the layout
 * and the torn-tail rules of {@link ManifestFormat}: a torn last record is dropped, anything else
 * unreadable is a {@link CorruptionException} naming the file and the offset.
 *
 * <p>Thread-safe (stateless).
 */
final class ManifestDecoder {
  /**
   * How far from a record's start a sector that starts inside its header (after its first byte)
   * reaches. When the length fails its crc the record's end is unknown, so a lost sector is looked
   * for only there.
   */
  private static final int HEADER_SECTOR_SPAN = RECORD_HEADER_BYTES - 1 + SECTOR_BYTES;

  private ManifestDecoder() {}

  /** What a manifest file holds: the state, and where its whole records end (for a torn tail). */
  record Decoded(Manifest manifest, int version, long validBytes, long records) {}

  /**
   * Parses and checks the bytes of the manifest file {@code file}, of any version this release
   * reads; a torn tail (see the class comment) is dropped.
   *
   * @throws CorruptionException when they are damaged, do not parse or break an invariant
   * @throws FormatVersionException when they are intact but of an unsupported version
   */
  static Decoded decode(byte[] bytes, Path file)
      throws CorruptionException, FormatVersionException {
    if (bytes.length < HEADER1_BYTES) {
      throw new CorruptionException(file, 0, "manifest of %d bytes is too short", bytes.length);
    }
    ByteCursor header = new ByteCursor(bytes, 0, HEADER1_BYTES, file, 0, "manifest");
    long magic = header.u64("magic");
    if (magic != MAGIC) {
      throw header.corrupt(-8, "bad magic %016x: not a manifest", magic);
    }
    int version = header.i32("version");
    if (version == 1) {
      return new Decoded(decodeVersion1(bytes, file), 1, bytes.length, 1);
    }
    // From version 2 on the header carries its own crc: a damaged version is corruption, and only
    // an intact one that this release does not know is a version error.
    if (bytes.length < HEADER_BYTES) {
      throw new CorruptionException(file, 0, "manifest of %d bytes is too short", bytes.length);
    }
    int stored = ByteBuffer.wrap(bytes, HEADER1_BYTES, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
    int computed = Checksums.maskedCrc32c(bytes, 0, HEADER1_BYTES);
    if (stored != computed) {
      throw new CorruptionException(
          file, HEADER1_BYTES, "manifest header checksum mismatch (stored %08x, computed %08x)",
          stored, computed);
    }
    if (version < VERSION_START || version > VERSION_CURRENT) {
      throw new FormatVersionException(file, version, VERSION_START, VERSION_CURRENT);
    }
    return decodeLog(bytes, file, version);
  }

  private static Decoded decodeLog(byte[] bytes, Path file, int version)
      throws CorruptionException {
    Manifest state = null;
    long records = 0;
    int at = HEADER_BYTES;
    while (at < bytes.length) {
      int left = bytes.length - at;
      if (allZero(bytes, at, bytes.length) && state != null) {
        break; // a torn tail: the file grew but the record never reached it
      }
      if (left < RECORD_HEADER_BYTES) {
        if (state == null) {
          throw new CorruptionException(file, at, "manifest ends before its first record");
        }
        break; // torn: the header itself was cut
      }
      ByteBuffer h = ByteBuffer.wrap(bytes, at, RECORD_HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
      long length = Integer.toUnsignedLong(h.getInt());
      int lengthCrc = h.getInt();
      int stored = h.getInt();
      if (lengthCrc != Checksums.maskedCrc32c(bytes, at, 4)) {
        if (state != null && allZero(bytes, at + RECORD_HEADER_BYTES, bytes.length)) {
          break; // torn: the header's first bytes arrived, the rest of the append is zeros
        }
        if (state != null
            && allZero(bytes, at, at + RECORD_HEADER_BYTES)
            && !intactRecordAfter(bytes, at)) {
          // Torn: the page holding the last append's header was never written back, a later one
          // was. No bit flip zeroes a whole header, and nothing intact follows.
          break;
        }
        if (state != null
            && wholeSectorMissing(bytes, at + 1, Math.min(bytes.length, at + HEADER_SECTOR_SPAN))
            && !intactRecordAfter(bytes, at)) {
          break; // torn: the sector starting inside the last append's header never arrived
        }
        throw new CorruptionException(file, at, "manifest record length fails its checksum");
      }
      if (length == 0) {
        throw new CorruptionException(file, at, "manifest record of length 0");
      }
      if (length > left - RECORD_HEADER_BYTES) {
        if (state == null) {
          throw new CorruptionException(
              file, at, "first manifest record of %d bytes runs past the end", length);
        }
        break; // torn: the record runs past the end of the file
      }
      int payload = at + RECORD_HEADER_BYTES;
      int end = payload + (int) length;
      int computed = Checksums.maskedCrc32c(bytes, payload, (int) length);
      if (stored != computed) {
        if (state != null && allZero(bytes, payload, bytes.length)) {
          break; // torn: the file grew but the payload's bytes never arrived
        }
        if (state != null && lastSectorsMissing(bytes, at, end)) {
          break; // torn: the append's first sectors reached the disk, its last ones did not
        }
        if (state != null && wholeSectorMissing(bytes, at + 1, end) && !intactRecordAfter(bytes, at)) {
          // Torn: a sector of the last append never reached the disk, later ones did. The sector
          // may start inside the header: its crc then reads as zeros too.
          break;
        }
        throw new CorruptionException(
            file, at, "manifest record checksum mismatch (stored %08x, computed %08x)", stored,
            computed);
      }
      state = decodeRecord(bytes, payload, end, file, state, version);
      String problem = state.problem();
      if (problem != null) {
        throw new CorruptionException(file, at, "manifest breaks an invariant: %s", problem);
      }
      records++;
      at = end;
    }
    if (state == null) {
      throw new CorruptionException(file, HEADER_BYTES, "manifest holds no record");
    }
    return new Decoded(state, version, at, records);
  }

  /**
   * Whether a whole record (its length and its payload passing their crcs) starts anywhere after
   * offset {@code damaged}: the damaged record's own length cannot be trusted, so every offset is
   * tried.
   */
  private static boolean intactRecordAfter(byte[] bytes, int damaged) {
    ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    for (int at = damaged + 1; at <= bytes.length - RECORD_HEADER_BYTES; at++) {
      long length = Integer.toUnsignedLong(b.getInt(at));
      if (length == 0
          || length > bytes.length - at - RECORD_HEADER_BYTES
          || b.getInt(at + 4) != Checksums.maskedCrc32c(bytes, at, 4)) {
        continue;
      }
      int payload = at + RECORD_HEADER_BYTES;
      if (b.getInt(at + 8) == Checksums.maskedCrc32c(bytes, payload, (int) length)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the record at [{@code from}, {@code end}) ends in whole sectors that never arrived: a
   * sector boundary ({@value #SECTOR_BYTES} bytes) inside the record from which only zeros follow,
   * to the end of the file. A device writes a sector whole or not at all, so a power loss during an
   * append leaves its first sectors and zeros after them; a bit flip leaves none, and a whole record
   * after this one is no tail at all.
   */
  private static boolean lastSectorsMissing(byte[] bytes, int from, int end) {
    int lastNonZero = bytes.length - 1;
    while (lastNonZero >= from && bytes[lastNonZero] == 0) {
      lastNonZero--;
    }
    long boundary = ((long) lastNonZero + SECTOR_BYTES) / SECTOR_BYTES * SECTOR_BYTES;
    return boundary < end;
  }

  /**
   * Whether a whole sector inside [{@code from}, {@code end}) holds only zeros: a device that
   * writes an append's sectors in any order may lose one while keeping a later one, and what it
   * loses reads back as the zeros the file was extended with. A bit flip zeroes no whole sector (a
   * payload never holds {@value #SECTOR_BYTES} zero bytes in a row), and the caller asks that no
   * whole record follows, so only the last append can be taken for torn this way.
   */
  private static boolean wholeSectorMissing(byte[] bytes, int from, int end) {
    for (long s = ((long) from + SECTOR_BYTES - 1) / SECTOR_BYTES * SECTOR_BYTES;
        s + SECTOR_BYTES <= end;
        s += SECTOR_BYTES) {
      if (allZero(bytes, (int) s, (int) s + SECTOR_BYTES)) {
        return true;
      }
    }
    return false;
  }

  private static boolean allZero(byte[] bytes, int from, int to) {
    for (int i = from; i < to; i++) {
      if (bytes[i] != 0) {
        return false;
      }
    }
    return true;
  }

  /** Applies the record in bytes[from, to) to {@code state} (null before the first record). */
  private static Manifest decodeRecord(
      byte[] bytes, int from, int to, Path file, Manifest state, int version)
      throws CorruptionException {
    ByteCursor in = new ByteCursor(bytes, from, to, file, from, "manifest record");
    int kind = in.u8("kind");
    if ((state == null) != (kind == SNAPSHOT) || (kind != SNAPSHOT && kind != EDIT)) {
      throw in.corrupt(
          -1, "record kind %d where a %s belongs", kind, state == null ? "snapshot" : "edit");
    }
    long nextFileNumber = in.u64("nextFileNumber");
    long lastSequence = in.u64("lastSequence");
    long logNumber = in.u64("logNumber");
    Manifest out;
    if (kind == SNAPSHOT) {
      List<FileMetadata> files = readFiles(in, version);
      List<SyncedLog> synced = readSynced(in, version);
      MarkerSet markers = MarkerSet.EMPTY.apply(readMarkers(in, version));
      out = new Manifest(nextFileNumber, lastSequence, logNumber, files, synced, markers);
    } else {
      long deletedCount = in.u32("deletedCount");
      if (deletedCount > in.remaining() / 8) {
        throw in.corrupt(-4, "%d deleted tables do not fit in %d bytes", deletedCount, in.remaining());
      }
      List<Long> deleted = new ArrayList<>((int) deletedCount);
      for (long i = 0; i < deletedCount; i++) {
        deleted.add(in.u64("deleted fileNumber"));
      }
      List<FileMetadata> added = readFiles(in, version);
      List<SyncedLog> synced = readSynced(in, version);
      List<MarkerUpdate> markers = readMarkers(in, version);
      ManifestEdit edit =
          new ManifestEdit(
              nextFileNumber, lastSequence, logNumber, deleted, added, synced, markers);
      String problem = edit.problemAgainst(state);
      if (problem != null) {
        throw new CorruptionException(file, from, "manifest edit does not apply: %s", problem);
      }
      out = state.apply(edit);
    }
    if (in.remaining() != 0) {
      throw in.corrupt(0, "%d bytes after the end of the record", in.remaining());
    }
    return out;
  }

  private static List<MarkerUpdate> readMarkers(ByteCursor in, int version)
      throws CorruptionException {
    return version < VERSION_MARKERS ? List.of() : MarkerCodec.read(in, in.u32("markerCount"));
  }

  private static List<SyncedLog> readSynced(ByteCursor in, int version)
      throws CorruptionException {
    if (version < VERSION_SYNCED_LOGS) {
      return List.of();
    }
    long count = in.u32("syncedCount");
    if (count > in.remaining() / SYNCED_LOG_BYTES) {
      throw in.corrupt(-4, "%d synced logs do not fit in %d bytes", count, in.remaining());
    }
    List<SyncedLog> synced = new ArrayList<>((int) count);
    for (long i = 0; i < count; i++) {
      long logNumber = in.u64("synced logNumber");
      long bytes = in.u64("synced bytes");
      synced.add(new SyncedLog(logNumber, bytes));
    }
    return synced;
  }

  private static List<FileMetadata> readFiles(ByteCursor in, int version)
      throws CorruptionException {
    long fileCount = in.u32("fileCount");
    long minFileBytes =
        (version == 1 ? FILE_FIXED_BYTES
            : version < VERSION_FILTER_SHAPES ? FILE2_FIXED_BYTES : FILE3_FIXED_BYTES)
            + 2L * (KEY_FIXED_BYTES + 1);
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
      long filterBytes =
          version == 1 ? FileMetadata.UNKNOWN_FILTER_BYTES : in.u64("filterBytes");
      if (filterBytes < FileMetadata.UNKNOWN_FILTER_BYTES) {
        throw in.corrupt(-8, "filterBytes %d out of range", filterBytes);
      }
      FilterKind filterKind = null;
      double filterBitsPerKey = 0;
      if (version >= VERSION_FILTER_SHAPES) {
        int kindId = in.u8("filterKind");
        filterKind = kindId == 0 ? null : FilterKind.fromIdOrNull(kindId);
        filterBitsPerKey = Double.longBitsToDouble(in.u64("filterBitsPerKey"));
        if (kindId != 0 && filterKind == null) {
          throw in.corrupt(-9, "unknown filter kind %d", kindId);
        }
        if (filterKind == null ? filterBitsPerKey != 0 : !(filterBitsPerKey >= 1 && filterBitsPerKey <= 64)) {
          throw in.corrupt(-8, "filterBitsPerKey %s out of range", filterBitsPerKey);
        }
      }
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
              largest,
              filterBytes,
              filterKind,
              filterBitsPerKey));
    }
    return files;
  }

  private static Manifest decodeVersion1(byte[] bytes, Path file) throws CorruptionException {
    if (bytes.length < HEADER1_BYTES + BODY_FIXED_BYTES + FOOTER_BYTES) {
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
    ByteCursor in = new ByteCursor(bytes, HEADER1_BYTES, footer, file, HEADER1_BYTES, "manifest");
    long nextFileNumber = in.u64("nextFileNumber");
    long lastSequence = in.u64("lastSequence");
    long logNumber = in.u64("logNumber");
    List<FileMetadata> files = readFiles(in, 1);
    if (in.remaining() != 0) {
      throw in.corrupt(0, "%d bytes after the last of %d tables", in.remaining(), files.size());
    }
    Manifest m = new Manifest(nextFileNumber, lastSequence, logNumber, files);
    String problem = m.problem();
    if (problem != null) {
      throw new CorruptionException(
          file, HEADER1_BYTES, "manifest breaks an invariant: %s", problem);
    }
    return m;
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
