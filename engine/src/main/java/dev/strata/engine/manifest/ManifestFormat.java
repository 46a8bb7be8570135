package dev.strata.engine.manifest;

import dev.strata.checksum.Checksums;
import dev.strata.engine.write.MarkerCodec;
import dev.strata.engine.write.MarkerUpdate;
import dev.strata.sstable.key.InternalKey;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;

/**
 * The manifest's byte layout: one file, {@code MANIFEST}. All integers are little-endian, as in every
 * Strata format; {@code crc} is a masked CRC32C ({@link Checksums}).
 *
 * <p><b>Version 5: a log of version edits</b> (LevelDB's MANIFEST), written by {@link ManifestLog}.
 *
 * <pre>
 * Manifest := Header Record+
 * Header   := magic:u64 version:u32 headerCrc:u32        version = 5, headerCrc = crc(magic version)
 * Record   := length:u32 lengthCrc:u32 crc:u32 payload[length]
 *             lengthCrc = crc(length), crc = crc(payload), length >= 1
 * payload  := SNAPSHOT | EDIT                            the first record is a SNAPSHOT, the rest EDITs
 * SNAPSHOT := 1:u8 Counters fileCount:u32 File{fileCount} Synced Markers
 * EDIT     := 2:u8 Counters deletedCount:u32 fileNumber:u64{deletedCount} addedCount:u32 File{addedCount}
 *             Synced Markers
 * Counters := nextFileNumber:u64 lastSequence:u64 logNumber:u64
 * File     := fileNumber:u64 level:u8 fileSize:u64 entryCount:u64
 *             smallestSequence:u64 largestSequence:u64 filterBytes:u64
 *             filterKind:u8 filterBitsPerKey:u64 smallest:Key largest:Key
 *             filterKind: 0 none or not recorded, else the table format's filter kind id;
 *             filterBitsPerKey: IEEE 754 double bits, 0 when filterKind is 0
 * Key      := rowLength:u16 row columnLength:u16 column sequence:u64 kind:u8
 * Synced   := syncedCount:u32 (logNumber:u64 bytes:u64){syncedCount}   logs forced up to a length
 * Markers  := markerCount:u32 Marker{markerCount}        commit markers (Marker: MarkerCodec);
 *             a SNAPSHOT's are every marker, set; an EDIT's are sets and removals applied in order
 * </pre>
 *
 * The state is the snapshot with every edit applied in order: an edit's counters replace the
 * previous ones, its deleted file numbers leave, its added files join, its synced logs replace what
 * the state knew of them, logs below the new log number are forgotten, and its markers are set or
 * removed in order. The markers are those as of the last write the listed tables hold: a flush
 * records the markers captured when its memtable was frozen, never later ones. Every prefix of whole
 * records is a state that passes {@link Manifest#problem()}. {@code filterBytes} is all ones when
 * unknown (a table first listed by a version-1 manifest whose size was not learned yet).
 *
 * <p><b>Torn tail or corruption.</b> A record is appended and fsynced before the engine acts on it,
 * so only the last record can have been cut by a crash, and a cut record was never acted on. A torn
 * tail is exactly what a crash during an append leaves: a last record whose header or payload runs
 * past the end of the file, or bytes that never arrived (zeros: the file grew but the data did not
 * reach the disk): only zero bytes where a record would start, a length failing its crc with only
 * zeros after the header, a header of zeros with no whole record anywhere after it (its page never
 * written back, a later one was), a payload of zeros only, or a payload whose last sectors are
 * zeros (a device writes a 512-byte sector whole or not at all). It is dropped. A record that is whole and
 * fails its crc, or does not parse, is corruption in every recovery mode, wherever it is: it may be
 * a bit flip in an edit the engine acted on (its flush deleted the log, its compaction the inputs).
 * The length has a crc of its own, so a damaged length is never mistaken for a record running past
 * the end. Recovery then checks that nothing the surviving state needs is gone (the log numbered
 * {@code logNumber}, each listed table, each synced log up to its length), so even a dropped tail
 * can never hide an edit that was acted on.
 *
 * <p><b>Version 4</b> (still read, never written): the same without {@code Markers} (no commit
 * marker recorded).
 *
 * <p><b>Version 3</b> (still read, never written): version 4 without {@code filterKind} and {@code
 * filterBitsPerKey} in File (its tables' filters read as not recorded).
 *
 * <p><b>Version 2</b> (still read, never written): version 3 without {@code Synced} in SNAPSHOT and
 * EDIT.
 *
 * <p><b>Version 1: the whole state, replaced atomically</b> (still read, never written).
 *
 * <pre>
 * Manifest := Header Body Footer
 * Header   := magic:u64 version:u32                      version = 1
 * Body     := Counters fileCount:u32 File1{fileCount}
 * File1    := File without filterBytes
 * Footer   := crc:u32 magic:u64        crc = crc(Header Body)
 * </pre>
 *
 * A version-1 table's filter size is not recorded ({@link FileMetadata#UNKNOWN_FILTER_BYTES}): the
 * engine opens the table once to learn it, and the next write of the manifest is a version-2
 * snapshot with every size.
 *
 * <p><b>The protocol that keeps every table.</b> A table is written and fsynced before a record lists
 * it; a table is deleted only after a durable record stopped listing it (and no reader pins it); a
 * log is deleted only after a durable record's {@code logNumber} passed it. On open, files the
 * manifest does not list (tables from an interrupted flush or compaction, temporary files, logs
 * below {@code logNumber}) are deleted. So a crash can neither lose a table the manifest lists nor
 * bring back one it dropped.
 *
 * <p>History: version 1 is the whole-state file; version 2 the edit log; version 3 adds the logs
 * known to be forced (a clean close records them), so damage to a closed database's log is
 * corruption rather than a torn tail; version 4 each table's filter kind and bits per key, so the
 * statistics of the levels need no table opened; version 5 the commit markers.
 *
 * <p>Thread-safe (stateless).
 */
public final class ManifestFormat {

  /** First bytes of the manifest (and last of a version-1 one): ASCII "STRATMAN". */
  public static final long MAGIC = 0x4E41_4D54_4152_5453L;

  /** The oldest format version this release reads. */
  public static final int VERSION_START = 1;

  /** The version this release writes. */
  public static final int VERSION_CURRENT = 5;

  /** The unit a device writes whole: a torn append is whole sectors of it, then zeros. */
  static final int SECTOR_BYTES = 512;

  /** The first version whose SNAPSHOT and EDIT records end with the synced logs. */
  static final int VERSION_SYNCED_LOGS = 3;

  /** The first version whose File records its table's filter kind and bits per key. */
  static final int VERSION_FILTER_SHAPES = 4;

  /** The first version whose SNAPSHOT and EDIT records end with the commit markers. */
  static final int VERSION_MARKERS = 5;

  /** Size of one synced log: its number and its forced length. */
  static final int SYNCED_LOG_BYTES = 8 + 8;

  /** The number of levels: level 0 (overlapping tables) and levels 1 to 6, as in LevelDB. */
  public static final int NUM_LEVELS = 7;

  /** Size of a version-1 header: magic and version. */
  public static final int HEADER1_BYTES = 8 + 4;

  /** Size of the header: magic, version and its crc. */
  public static final int HEADER_BYTES = HEADER1_BYTES + 4;

  /** Size of a version-1 footer: crc and magic. */
  public static final int FOOTER_BYTES = 4 + 8;

  /** Size of the counters. */
  public static final int COUNTERS_BYTES = 8 + 8 + 8;

  /** Size of a version-1 body's fixed part. */
  public static final int BODY_FIXED_BYTES = COUNTERS_BYTES + 4;

  /** Size of a version-1 File's fixed part, without its two keys. */
  public static final int FILE_FIXED_BYTES = 8 + 1 + 8 + 8 + 8 + 8;

  /** Size of a version-2 File's fixed part, without its two keys: filterBytes joins. */
  public static final int FILE2_FIXED_BYTES = FILE_FIXED_BYTES + 8;

  /** Size of a version-4 File's fixed part, without its two keys: the filter's kind and bits join. */
  public static final int FILE3_FIXED_BYTES = FILE2_FIXED_BYTES + 1 + 8;

  /** Size of a Key's fixed part, without its row and column. */
  public static final int KEY_FIXED_BYTES = 2 + 2 + 8 + 1;

  /** Size of a record's header: length, its crc, and the payload's crc. */
  public static final int RECORD_HEADER_BYTES = 4 + 4 + 4;

  /** Record kinds. */
  static final int SNAPSHOT = 1;

  static final int EDIT = 2;

  private ManifestFormat() {}

  /** The header of a version-2 manifest. */
  static byte[] header() {
    ByteBuffer b =
        ByteBuffer.allocate(HEADER_BYTES)
            .order(ByteOrder.LITTLE_ENDIAN)
            .putLong(MAGIC)
            .putInt(VERSION_CURRENT);
    return b.putInt(Checksums.maskedCrc32c(b.array(), 0, HEADER1_BYTES)).array();
  }

  /** A whole version-2 manifest holding {@code m} as its snapshot; does not check invariants. */
  static byte[] encode(Manifest m) {
    byte[] record = snapshotRecord(m);
    byte[] out = Arrays.copyOf(header(), HEADER_BYTES + record.length);
    System.arraycopy(record, 0, out, HEADER_BYTES, record.length);
    return out;
  }

  /** The SNAPSHOT record of {@code m}, header included. */
  static byte[] snapshotRecord(Manifest m) {
    List<MarkerUpdate> markers = m.markers().asUpdates();
    long size = 1 + COUNTERS_BYTES + 4 + syncedSize(m.syncedLogs()) + markersSize(markers);
    for (FileMetadata f : m.files()) {
      size += fileSize(f);
    }
    ByteBuffer b = record(size);
    b.put((byte) SNAPSHOT);
    putCounters(b, m.nextFileNumber(), m.lastSequence(), m.logNumber());
    b.putInt(m.files().size());
    m.files().forEach(f -> putFile(b, f));
    putSynced(b, m.syncedLogs());
    putMarkers(b, markers);
    return sealRecord(b);
  }

  /** The EDIT record of {@code e}, header included. */
  static byte[] editRecord(ManifestEdit e) {
    long size =
        1 + COUNTERS_BYTES + 4 + 8L * e.deleted().size() + 4 + syncedSize(e.synced())
            + markersSize(e.markers());
    for (FileMetadata f : e.added()) {
      size += fileSize(f);
    }
    ByteBuffer b = record(size);
    b.put((byte) EDIT);
    putCounters(b, e.nextFileNumber(), e.lastSequence(), e.logNumber());
    b.putInt(e.deleted().size());
    e.deleted().forEach(b::putLong);
    b.putInt(e.added().size());
    e.added().forEach(f -> putFile(b, f));
    putSynced(b, e.synced());
    putMarkers(b, e.markers());
    return sealRecord(b);
  }

  private static long syncedSize(List<SyncedLog> synced) {
    return 4 + (long) SYNCED_LOG_BYTES * synced.size();
  }

  private static void putSynced(ByteBuffer b, List<SyncedLog> synced) {
    b.putInt(synced.size());
    synced.forEach(l -> b.putLong(l.logNumber()).putLong(l.bytes()));
  }

  private static long markersSize(List<MarkerUpdate> markers) {
    return 4 + MarkerCodec.size(markers);
  }

  private static void putMarkers(ByteBuffer b, List<MarkerUpdate> markers) {
    b.putInt(markers.size());
    MarkerCodec.put(b, markers);
  }

  private static long fileSize(FileMetadata f) {
    return FILE3_FIXED_BYTES + keySize(f.smallest()) + keySize(f.largest());
  }

  private static ByteBuffer record(long payloadSize) {
    if (payloadSize > Integer.MAX_VALUE - RECORD_HEADER_BYTES) {
      throw new IllegalArgumentException("manifest record of " + payloadSize + " bytes is too large");
    }
    ByteBuffer b =
        ByteBuffer.allocate(RECORD_HEADER_BYTES + (int) payloadSize).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt((int) payloadSize);
    b.putInt(Checksums.maskedCrc32c(b.array(), 0, 4));
    b.putInt(0); // the payload's crc, filled in by sealRecord
    return b;
  }

  private static byte[] sealRecord(ByteBuffer b) {
    assert !b.hasRemaining() : b.remaining() + " bytes left";
    byte[] a = b.array();
    int crc = Checksums.maskedCrc32c(a, RECORD_HEADER_BYTES, a.length - RECORD_HEADER_BYTES);
    ByteBuffer.wrap(a, 8, 4).order(ByteOrder.LITTLE_ENDIAN).putInt(crc);
    return a;
  }

  private static void putCounters(ByteBuffer b, long next, long lastSequence, long logNumber) {
    b.putLong(next).putLong(lastSequence).putLong(logNumber);
  }

  private static void putFile(ByteBuffer b, FileMetadata f) {
    b.putLong(f.fileNumber()).put((byte) f.level()).putLong(f.fileSize()).putLong(f.entryCount());
    b.putLong(f.smallestSequence()).putLong(f.largestSequence()).putLong(f.filterBytes());
    b.put((byte) (f.filterKind() == null ? 0 : f.filterKind().id()));
    b.putLong(Double.doubleToRawLongBits(f.filterKind() == null ? 0 : f.filterBitsPerKey()));
    putKey(b, f.smallest());
    putKey(b, f.largest());
  }

  private static long keySize(InternalKey k) {
    return KEY_FIXED_BYTES + (long) k.row().length + k.column().length;
  }

  private static void putKey(ByteBuffer b, InternalKey k) {
    b.putShort((short) k.row().length).put(k.row());
    b.putShort((short) k.column().length).put(k.column());
    b.putLong(k.sequence()).put((byte) k.kind().id());
  }

}
