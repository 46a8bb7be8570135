package dev.strata.kafka;

import dev.strata.engine.BulkLoad;
import dev.strata.engine.Db;
import dev.strata.engine.DbOptions;
import dev.strata.engine.WriteBatch;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.internals.RecordBatchingStateRestoreCallback;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * A Kafka Streams {@code KeyValueStore<Bytes, byte[]>} in a Strata {@link Db} of its own, under
 * {@code <task state dir>/strata/<name>}.
 *
 * <p>What it guarantees:
 *
 * <ul>
 *   <li>Every write from processing is in the database's log when it returns (it survives the
 *       process being killed); {@code putAll} and each restored batch are one {@link WriteBatch},
 *       all or nothing.
 *   <li>Restored batches skip the log ({@link BulkLoad#write}, as Kafka's RocksDB store restores
 *       with {@code disableWAL}): the restore's bulk load flushes them to tables when it ends,
 *       before the first write from processing, a commit's offsets or the close can follow them.
 *       A crash during a restore keeps a prefix of the restored batches, each with the offsets
 *       written in it, so Kafka Streams restores the rest from the changelog.
 *   <li>Iterators see the store as of their creation (a {@code Db} snapshot and a cursor over it)
 *       and release both on close; closing the store closes the iterators still open.
 *   <li>Changelog offsets (Kafka Streams' {@code managesOffsets}, KIP-1035) live in the same
 *       database as commit markers, outside its key space ({@link ChangelogOffsets}). A restored
 *       batch and the offset of its last record are one write batch, so a restore interrupted by a
 *       crash resumes after the last batch it applied, never replaying one; and since the offsets
 *       take no key, a restore in key order fills memtables with disjoint key ranges, whose
 *       level-0 tables the engine moves down instead of rewriting them. Under at-least-once, {@code commit} appends the offsets to
 *       the log after the data they cover, once they have moved {@link
 *       ChangelogOffsets#WRITE_THRESHOLD} records (as Kafka's checkpoint file), so the store never
 *       holds an offset ahead of its data; after a crash it restores from the last offset written,
 *       applying again the writes made since (puts of the same values: the result is the same).
 *       A commit that writes the offsets also forces the log ({@link Db#syncWal}, no memtable
 *       flush): a power loss then keeps the data up to those offsets, so the replay after one is
 *       bounded like the replay after a kill. {@code flush()} forces the log the same way.
 *       Under exactly-once the store may hold writes of a transaction that
 *       never committed, so, like Kafka's checkpoint file, the offsets are removed from the database
 *       when the store opens and written back only by a clean {@code close}: after a crash Kafka
 *       Streams finds no offset and rebuilds the store from the changelog.
 * </ul>
 *
 * <p>Thread-safety: one stream thread writes; interactive queries may read and iterate from other
 * threads at the same time ({@link Db} is thread-safe).
 */
final class StrataKeyValueStore implements KeyValueStore<Bytes, byte[]> {
  private final String name;
  private final DbOptions options;
  /** The bulk load a restore runs under (see StrataStores); 0: none. */
  private final int restoreLevel0Tables;
  private final Set<StrataIterator> iterators = ConcurrentHashMap.newKeySet();
  private volatile Db db;
  private StateStoreContext context;
  private ChangelogOffsets offsets = new ChangelogOffsets();
  private boolean exactlyOnce;
  private boolean dirty;
  private Position position = Position.emptyPosition();
  /**
   * Open from the first restored batch to the first write from processing or the close. Read and
   * set by the thread that restores the task, then by the one that processes it: Kafka Streams
   * hands a task from one to the other through its own synchronized queues. Volatile only for
   * {@link #underRestoreLoad}, which tests call from threads of their own.
   */
  private volatile BulkLoad restoring;

  StrataKeyValueStore(String name, DbOptions options, int restoreLevel0Tables) {
    this.name = name;
    this.options = options;
    this.restoreLevel0Tables = restoreLevel0Tables;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public void init(StateStoreContext context, StateStore root) {
    if (db != null) {
      throw new IllegalStateException("store " + name + " is already open");
    }
    this.context = context;
    Path dir = context.stateDir().toPath().resolve("strata").resolve(name);
    try {
      Files.createDirectories(dir);
      Db opened = Db.open(dir, options);
      try {
        offsets = ChangelogOffsets.open(opened);
        exactlyOnce = !StreamsConfig.AT_LEAST_ONCE.equals(
            context.appConfigs().getOrDefault(StreamsConfig.PROCESSING_GUARANTEE_CONFIG,
                StreamsConfig.AT_LEAST_ONCE));
        if (exactlyOnce && !offsets.isEmpty()) {
          WriteBatch batch = new WriteBatch();
          offsets.removeWritten(batch);
          opened.write(batch);
        }
      } catch (IOException | RuntimeException e) {
        opened.close();
        throw e;
      }
      db = opened;
    } catch (IOException e) {
      throw new ProcessorStateException("cannot open store " + name + " in " + dir, e);
    }
    context.register(root, new Restorer());
  }

  /** Writes each restored batch and the offset of its last record as one write batch. */
  private final class Restorer implements RecordBatchingStateRestoreCallback {
    @Override
    public void restoreBatch(Collection<ConsumerRecord<byte[], byte[]>> records) {
      WriteBatch batch = new WriteBatch();
      Map<TopicPartition, Long> last = new HashMap<>();
      // A batch is one partition's records in practice: a partition's offset is noted where the
      // next record is of another partition and at the end, not per record.
      String topic = null;
      int partition = -1;
      long offset = -1;
      for (ConsumerRecord<byte[], byte[]> r : records) {
        add(batch, r.key(), r.value());
        if (r.partition() != partition || !r.topic().equals(topic)) {
          if (topic != null) {
            last.put(new TopicPartition(topic, partition), offset);
          }
          topic = r.topic();
          partition = r.partition();
        }
        offset = r.offset();
      }
      if (topic != null) {
        last.put(new TopicPartition(topic, partition), offset);
      }
      last.forEach((tp, o) -> offsets.set(tp, o, exactlyOnce ? null : batch));
      beginRestore();
      write(batch, restoring);
    }

    @Override
    public void restoreAll(Collection<KeyValue<byte[], byte[]>> records) {
      WriteBatch batch = new WriteBatch();
      records.forEach(kv -> add(batch, kv.key, kv.value));
      beginRestore();
      write(batch, restoring);
    }
  }

  /**
   * Puts the database under the restore's bulk load, unless it is already. Kafka Streams tells a
   * store no restore's end, only each batch: the load ends with the first write from processing
   * (which starts once the task's stores are restored) or the close.
   *
   * <p>A standby task's store never sees that end while it is a standby: Kafka Streams' state
   * updater feeds it through the same callback and, every commit interval, calls {@link #commit}
   * with the offset of the last record applied (no {@code flush()}). So it stays under the load,
   * its level 0 compacted at the load's table count, and a commit cuts no table: under
   * exactly-once it keeps the offsets in memory, under at-least-once each batch wrote its offset
   * already. A promoted standby's task keeps the store open, and its first write ends the load.
   */
  private void beginRestore() {
    if (restoring == null && restoreLevel0Tables > 0) {
      restoring = db().bulkLoad(restoreLevel0Tables);
    }
  }

  /**
   * Ends the restore's bulk load, if one is open: returns once the batches restored through it
   * are in tables, before any logged write follows them.
   */
  private void endRestore() {
    BulkLoad load = restoring;
    if (load != null) {
      restoring = null;
      try {
        load.close();
      } catch (UncheckedIOException e) {
        throw new ProcessorStateException("cannot flush the restore of store " + name, e);
      }
    }
  }

  /** Whether the restore's bulk load is open (for tests). */
  boolean underRestoreLoad() {
    return restoring != null;
  }

  private static void add(WriteBatch batch, byte[] key, byte[] value) {
    byte[] row = StoreKeys.row(key);
    if (value == null) {
      batch.delete(row, StoreKeys.COLUMN);
    } else {
      batch.put(row, StoreKeys.COLUMN, value);
    }
  }

  Db db() {
    Db d = db;
    if (d == null) {
      throw new InvalidStateStoreException("store " + name + " is not open");
    }
    return d;
  }

  private static byte[] keyBytes(Bytes key) {
    return Objects.requireNonNull(key, "key").get();
  }

  private void write(WriteBatch batch) {
    write(batch, null);
  }

  /** Writes {@code batch} to the log and the memtable, or through {@code load} unlogged. */
  private void write(WriteBatch batch, BulkLoad load) {
    try {
      if (load == null) {
        db().write(batch);
      } else {
        load.write(batch);
      }
      dirty = true;
    } catch (IOException e) {
      throw new ProcessorStateException("cannot write to store " + name, e);
    }
  }

  /** Records the input record being processed, for interactive queries' position bounds. */
  private void track() {
    if (context != null) {
      context.recordMetadata().ifPresent(m ->
          position = position.withComponent(m.topic(), m.partition(), m.offset()));
    }
  }

  @Override
  public void put(Bytes key, byte[] value) {
    endRestore();
    WriteBatch batch = new WriteBatch();
    add(batch, keyBytes(key), value);
    write(batch);
    track();
  }

  @Override
  public byte[] putIfAbsent(Bytes key, byte[] value) {
    byte[] old = get(key);
    if (old == null) {
      put(key, value);
    }
    return old;
  }

  @Override
  public void putAll(List<KeyValue<Bytes, byte[]>> entries) {
    endRestore();
    WriteBatch batch = new WriteBatch();
    for (KeyValue<Bytes, byte[]> kv : entries) {
      add(batch, keyBytes(kv.key), kv.value);
    }
    write(batch);
    track();
  }

  @Override
  public byte[] delete(Bytes key) {
    byte[] old = get(key);
    put(key, null);
    return old;
  }

  @Override
  public byte[] get(Bytes key) {
    byte[] k = keyBytes(key);
    try {
      return db().get(StoreKeys.row(k), StoreKeys.COLUMN);
    } catch (IOException e) {
      throw new ProcessorStateException("cannot read store " + name, e);
    }
  }

  @Override
  public KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to) {
    return range(from, to, true);
  }

  @Override
  public KeyValueIterator<Bytes, byte[]> reverseRange(Bytes from, Bytes to) {
    return range(from, to, false);
  }

  /** Keys in [from, to] (null: unbounded); empty when from is after to, as Kafka's stores. */
  KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to, boolean forward) {
    byte[] lower = from == null ? StoreKeys.FIRST : StoreKeys.row(from.get());
    if (to == null) {
      return iterator(lower, StoreKeys.END, false, forward);
    }
    byte[] upper = StoreKeys.row(to.get());
    if (from != null && from.compareTo(to) > 0) {
      return iterator(upper, upper, false, forward);
    }
    return iterator(lower, upper, true, forward);
  }

  @Override
  public KeyValueIterator<Bytes, byte[]> all() {
    return range(null, null, true);
  }

  @Override
  public KeyValueIterator<Bytes, byte[]> reverseAll() {
    return range(null, null, false);
  }

  @Override
  public <PS extends Serializer<P>, P> KeyValueIterator<Bytes, byte[]> prefixScan(P prefix,
      PS prefixKeySerializer) {
    Objects.requireNonNull(prefix, "prefix");
    Objects.requireNonNull(prefixKeySerializer, "prefixKeySerializer");
    byte[] row = StoreKeys.row(prefixKeySerializer.serialize(null, prefix));
    return iterator(row, StoreKeys.prefixEnd(row), false, true);
  }

  private KeyValueIterator<Bytes, byte[]> iterator(byte[] lower, byte[] upper,
      boolean upperInclusive, boolean forward) {
    try {
      StrataIterator it = new StrataIterator(db(), name, lower, upper, upperInclusive, forward,
          iterators::remove);
      iterators.add(it);
      return it;
    } catch (IOException e) {
      throw new ProcessorStateException("cannot iterate store " + name, e);
    }
  }

  /**
   * The engine's estimate of the entries the store holds ({@code Db.approximateEntries}, as
   * RocksDB's {@code rocksdb.estimate-num-keys} for Kafka's default store): versions not yet merged
   * by a compaction, and deletes, count too. Reads nothing from disk.
   */
  @Override
  public long approximateNumEntries() {
    return db().approximateEntries();
  }

  /**
   * Makes every write durable by forcing the log ({@link Db#syncWal}), not by flushing the
   * memtable: Kafka's RocksDB store flushes its memtables because it writes no log; here the log
   * holds every write already, and one fsync makes it durable without a level-0 table per call.
   * While a restore's bulk load is open its batches are in no log, so the memtables are flushed
   * instead ({@link Db#flush}), as Kafka's store does. Does not touch the changelog offsets.
   */
  @Override
  @SuppressWarnings("deprecation")
  public void flush() {
    syncLog();
  }

  private void syncLog() {
    if (!dirty) {
      return;
    }
    try {
      if (restoring != null) {
        db().flush(); // restored batches skipped the log
      } else {
        db().syncWal();
      }
      dirty = false;
    } catch (IOException e) {
      throw new ProcessorStateException("cannot force the log of store " + name, e);
    }
  }

  @Override
  public void commit(Map<TopicPartition, Long> changelogOffsets) {
    if (exactlyOnce) {
      offsets.apply(changelogOffsets, null);
      return;
    }
    WriteBatch batch = new WriteBatch();
    offsets.apply(changelogOffsets, batch);
    if (!batch.isEmpty()) {
      write(batch);
      syncLog(); // the offsets and the data they cover, one fsync
    }
  }

  @Override
  public Long committedOffset(TopicPartition partition) {
    return offsets.get(partition);
  }

  @Override
  @SuppressWarnings("deprecation")
  public boolean managesOffsets() {
    return true;
  }

  @Override
  public <R> QueryResult<R> query(Query<R> query, PositionBound bound, QueryConfig config) {
    int partition = context == null ? -1 : context.taskId().partition();
    return StoreQueries.run(this, query, bound, config, position, partition);
  }

  @Override
  public Position getPosition() {
    return position;
  }

  @Override
  public boolean persistent() {
    return true;
  }

  @Override
  public boolean isOpen() {
    return db != null;
  }

  /**
   * Closes the iterators still open and the database. The offsets held in memory are written
   * first: a clean close is the point where the store matches them (under exactly-once the only
   * one; under at-least-once the next open then restores nothing written before). Idempotent.
   */
  @Override
  public synchronized void close() {
    Db d = db;
    if (d == null) {
      return;
    }
    List<StrataIterator> open = new ArrayList<>(iterators);
    open.forEach(StrataIterator::close);
    endRestore();
    try {
      if (!offsets.isEmpty()) {
        WriteBatch batch = new WriteBatch();
        offsets.writeAll(batch);
        d.write(batch);
      }
      d.flush();
    } catch (IOException e) {
      throw new ProcessorStateException("cannot close store " + name, e);
    } finally {
      db = null;
      try {
        d.close();
      } catch (IOException e) {
        throw new ProcessorStateException("cannot close store " + name, e);
      }
    }
  }
}
