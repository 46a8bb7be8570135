package dev.strata.engine.log;

import dev.strata.engine.write.MarkerUpdate;
import dev.strata.engine.write.Mutation;
import java.util.List;
import java.util.Objects;

/**
 * One log record: a write or a batch, applied all or nothing. Mutation {@code i} has sequence
 * number {@code firstSequence + i}; the commit markers it sets or removes apply with them.
 *
 * <p>Immutable.
 *
 * @param firstSequence the sequence number of the first mutation
 * @param mutations the mutations in order; an unmodifiable list
 * @param markers the commit marker updates, in order; an unmodifiable list, empty for most
 */
public record LogRecord(long firstSequence, List<Mutation> mutations, List<MarkerUpdate> markers) {

  public LogRecord {
    mutations = List.copyOf(Objects.requireNonNull(mutations, "mutations"));
    markers = List.copyOf(Objects.requireNonNull(markers, "markers"));
  }

  /** A record without commit markers. */
  public LogRecord(long firstSequence, List<Mutation> mutations) {
    this(firstSequence, mutations, List.of());
  }

  /** The sequence number of the last mutation ({@code firstSequence - 1} when there is none). */
  public long lastSequence() {
    return firstSequence + mutations.size() - 1;
  }
}
