package dev.strata.kafka;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * A store supplier that keeps every Strata store it makes, each behind a store that hands every
 * call to it and counts Kafka Streams' commits: what a broker test reads of a task's store while
 * Kafka Streams runs it.
 *
 * <p>Thread-safe: stream threads and the state updater make and commit stores while a test reads.
 */
final class ObservedStores implements KeyValueBytesStoreSupplier {
  private final String name;
  private final KeyValueBytesStoreSupplier strata;
  private final List<Observed> made = new CopyOnWriteArrayList<>();

  ObservedStores(String name, KeyValueBytesStoreSupplier strata) {
    this.name = name;
    this.strata = strata;
  }

  /** The stores made so far, oldest first. */
  List<Observed> made() {
    return List.copyOf(made);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public KeyValueStore<Bytes, byte[]> get() {
    Observed o = new Observed((StrataKeyValueStore) strata.get());
    made.add(o);
    return o;
  }

  @Override
  public String metricsScope() {
    return strata.metricsScope();
  }

  /** One Strata store and the number of Kafka Streams' commits of it. */
  static final class Observed implements KeyValueStore<Bytes, byte[]> {
    private final StrataKeyValueStore store;
    private final AtomicInteger commits = new AtomicInteger();

    Observed(StrataKeyValueStore store) {
      this.store = store;
    }

    StrataKeyValueStore store() {
      return store;
    }

    int commits() {
      return commits.get();
    }

    @Override
    public void commit(Map<TopicPartition, Long> changelogOffsets) {
      store.commit(changelogOffsets);
      commits.incrementAndGet();
    }

    @Override
    public Long committedOffset(TopicPartition partition) {
      return store.committedOffset(partition);
    }

    @Override
    @SuppressWarnings("deprecation")
    public boolean managesOffsets() {
      return store.managesOffsets();
    }

    @Override
    public String name() {
      return store.name();
    }

    @Override
    public void init(StateStoreContext context, StateStore root) {
      store.init(context, root);
    }

    @Override
    @SuppressWarnings("deprecation")
    public void flush() {
      store.flush();
    }

    @Override
    public void close() {
      store.close();
    }

    @Override
    public boolean persistent() {
      return store.persistent();
    }

    @Override
    public boolean isOpen() {
      return store.isOpen();
    }

    @Override
    public <R> QueryResult<R> query(Query<R> query, PositionBound bound, QueryConfig config) {
      return store.query(query, bound, config);
    }

    @Override
    public Position getPosition() {
      return store.getPosition();
    }

    @Override
    public void put(Bytes key, byte[] value) {
      store.put(key, value);
    }

    @Override
    public byte[] putIfAbsent(Bytes key, byte[] value) {
      return store.putIfAbsent(key, value);
    }

    @Override
    public void putAll(List<KeyValue<Bytes, byte[]>> entries) {
      store.putAll(entries);
    }

    @Override
    public byte[] delete(Bytes key) {
      return store.delete(key);
    }

    @Override
    public byte[] get(Bytes key) {
      return store.get(key);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to) {
      return store.range(from, to);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> reverseRange(Bytes from, Bytes to) {
      return store.reverseRange(from, to);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> all() {
      return store.all();
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> reverseAll() {
      return store.reverseAll();
    }

    @Override
    public <PS extends Serializer<P>, P> KeyValueIterator<Bytes, byte[]> prefixScan(P prefix,
        PS prefixKeySerializer) {
      return store.prefixScan(prefix, prefixKeySerializer);
    }

    @Override
    public long approximateNumEntries() {
      return store.approximateNumEntries();
    }
  }
}
