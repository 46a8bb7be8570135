package dev.strata.kafka.bench;

import java.io.File;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.StreamsMetrics;
import org.apache.kafka.streams.processor.CommitCallback;
import org.apache.kafka.streams.processor.StateRestoreCallback;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * A store context that hands every call to Kafka's mock context and keeps the restore callback a
 * store registers, so the benchmark can restore a store as Kafka Streams' changelog reader would.
 *
 * <p>Not thread-safe.
 */
public final class CapturingContext implements StateStoreContext {
  private final StateStoreContext delegate;
  private StateRestoreCallback callback;

  public CapturingContext(StateStoreContext delegate) {
    this.delegate = delegate;
  }

  public StateRestoreCallback callback() {
    return callback;
  }

  @Override
  public String applicationId() {
    return delegate.applicationId();
  }

  @Override
  public TaskId taskId() {
    return delegate.taskId();
  }

  @Override
  public Optional<RecordMetadata> recordMetadata() {
    return delegate.recordMetadata();
  }

  @Override
  public Serde<?> keySerde() {
    return delegate.keySerde();
  }

  @Override
  public Serde<?> valueSerde() {
    return delegate.valueSerde();
  }

  @Override
  public File stateDir() {
    return delegate.stateDir();
  }

  @Override
  public StreamsMetrics metrics() {
    return delegate.metrics();
  }

  @Override
  public void register(StateStore store, StateRestoreCallback cb) {
    callback = cb;
    delegate.register(store, cb);
  }

  @Override
  public void register(StateStore store, StateRestoreCallback cb, CommitCallback commit) {
    callback = cb;
    delegate.register(store, cb, commit);
  }

  @Override
  public Map<String, Object> appConfigs() {
    return delegate.appConfigs();
  }

  @Override
  public Map<String, Object> appConfigsWithPrefix(String prefix) {
    return delegate.appConfigsWithPrefix(prefix);
  }
}
