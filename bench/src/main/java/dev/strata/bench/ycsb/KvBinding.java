package dev.strata.bench.ycsb;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.Vector;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * What both YCSB bindings share, so they are written the same way: a record is one value ({@link
 * RecordCodec}) under its key's UTF-8 bytes (the table name is ignored: CoreWorkload uses one);
 * {@code update} reads the record, replaces the given fields and writes it back
 * (read-modify-write in both engines); {@code scan} is a cursor from the start key reading {@code
 * recordcount} records. Subclasses supply the engine's get, put, delete and cursor.
 *
 * <p>One instance per client thread, as YCSB makes them; the engine behind it is shared.
 */
abstract class KvBinding extends DB {
  /** Receives the records of a scan in key order; returns false to stop. */
  interface ScanSink {
    boolean accept(byte[] key, byte[] value);
  }

  /** Opens (or joins) the engine with the settings in {@code config}. */
  abstract void open(BindingConfig config) throws Exception;

  /** Leaves the engine; the last thread closes it. */
  abstract void close() throws Exception;

  abstract byte[] get(byte[] key) throws Exception;

  abstract void put(byte[] key, byte[] value) throws Exception;

  abstract void remove(byte[] key) throws Exception;

  /** Feeds {@code sink} the records from {@code start} on, at most {@code count}. */
  abstract void scan(byte[] start, int count, ScanSink sink) throws Exception;

  @Override
  public final void init() throws DBException {
    try {
      open(BindingConfig.from(getProperties()));
    } catch (Exception e) {
      throw new DBException("cannot open the engine: " + e, e);
    }
  }

  @Override
  public final void cleanup() throws DBException {
    try {
      close();
    } catch (Exception e) {
      throw new DBException("cannot close the engine: " + e, e);
    }
  }

  @Override
  public final Status read(String table, String key, Set<String> fields,
      Map<String, ByteIterator> result) {
    try {
      byte[] v = get(bytes(key));
      if (v == null) {
        return Status.NOT_FOUND;
      }
      RecordCodec.decode(v, fields, result);
      return Status.OK;
    } catch (Exception e) {
      return error(e);
    }
  }

  @Override
  public final Status scan(String table, String startkey, int recordcount, Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    try {
      scan(bytes(startkey), recordcount, (k, v) -> {
        HashMap<String, ByteIterator> record = new HashMap<>();
        RecordCodec.decode(v, fields, record);
        result.add(record);
        return true;
      });
      return Status.OK;
    } catch (Exception e) {
      return error(e);
    }
  }

  @Override
  public final Status update(String table, String key, Map<String, ByteIterator> values) {
    try {
      byte[] k = bytes(key);
      byte[] v = get(k);
      if (v == null) {
        return Status.NOT_FOUND;
      }
      Map<String, ByteIterator> record = new HashMap<>();
      RecordCodec.decode(v, null, record);
      record.putAll(values);
      put(k, RecordCodec.encode(record));
      return Status.OK;
    } catch (Exception e) {
      return error(e);
    }
  }

  @Override
  public final Status insert(String table, String key, Map<String, ByteIterator> values) {
    try {
      put(bytes(key), RecordCodec.encode(values));
      return Status.OK;
    } catch (Exception e) {
      return error(e);
    }
  }

  @Override
  public final Status delete(String table, String key) {
    try {
      remove(bytes(key));
      return Status.OK;
    } catch (Exception e) {
      return error(e);
    }
  }

  private static byte[] bytes(String key) {
    return key.getBytes(StandardCharsets.UTF_8);
  }

  /** An operation that failed counts as an error in YCSB's measurements; its cause goes to the log. */
  private static Status error(Exception e) {
    e.printStackTrace();
    return Status.ERROR;
  }
}
