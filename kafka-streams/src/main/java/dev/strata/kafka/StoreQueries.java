package dev.strata.kafka;

import java.util.Map;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.query.KeyQuery;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.RangeQuery;
import org.apache.kafka.streams.query.ResultOrder;
import org.apache.kafka.streams.state.KeyValueIterator;

/**
 * Interactive queries (IQv2) a Strata store answers itself: {@link KeyQuery} and {@link
 * RangeQuery} over its bytes (the metered layer above it turns typed queries into these and the
 * answers back). A query with a position bound the store has not reached for its partition gets
 * {@code notUpToBound}; any other query type {@code forUnknownQueryType}.
 *
 * <p>Immutable (static methods only).
 */
final class StoreQueries {
  private StoreQueries() {}

  @SuppressWarnings("unchecked")
  static <R> QueryResult<R> run(StrataKeyValueStore store, Query<R> query, PositionBound bound,
      QueryConfig config, Position position, int partition) {
    long start = config.isCollectExecutionInfo() ? System.nanoTime() : 0;
    if (!reached(position, bound, partition)) {
      return QueryResult.notUpToBound(position, bound, partition);
    }
    QueryResult<R> result;
    if (query instanceof KeyQuery<?, ?> q) {
      result = (QueryResult<R>) QueryResult.forResult(store.get((Bytes) q.getKey()));
    } else if (query instanceof RangeQuery<?, ?> q) {
      Bytes lower = (Bytes) q.getLowerBound().orElse(null);
      Bytes upper = (Bytes) q.getUpperBound().orElse(null);
      KeyValueIterator<Bytes, byte[]> it =
          store.range(lower, upper, q.resultOrder() != ResultOrder.DESCENDING);
      result = (QueryResult<R>) QueryResult.forResult(it);
    } else {
      return QueryResult.forUnknownQueryType(query, store);
    }
    if (config.isCollectExecutionInfo()) {
      result.addExecutionInfo("Handled in " + StrataKeyValueStore.class.getName() + " in "
          + (System.nanoTime() - start) + " ns");
    }
    result.setPosition(position.copy());
    return result;
  }

  /** Whether {@code position} has reached {@code bound} for this store's partition. */
  private static boolean reached(Position position, PositionBound bound, int partition) {
    if (bound.isUnbounded()) {
      return true;
    }
    for (String topic : bound.position().getTopics()) {
      Long wanted = bound.position().getPartitionPositions(topic).get(partition);
      if (wanted == null) {
        continue;
      }
      Map<Integer, Long> seen = position.getPartitionPositions(topic);
      Long have = seen == null ? null : seen.get(partition);
      if (have == null || have < wanted) {
        return false;
      }
    }
    return true;
  }
}
