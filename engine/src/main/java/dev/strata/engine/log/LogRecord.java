package dev.strata.engine.log;

import dev.strata.engine.write.Mutation;
import java.util.List;
import java.util.Objects;

/**
 * One log record: a write or a batch, applied all or nothing. Mutation {@code i} has sequence
 * number {@code firstSequence + i}.
 *
 * <p>Immutable.
 *
 * @param firstSequence the sequence number of the first mutation
 * @param mutations the mutations in order; an unmodifiable list
 */
public record LogRecord(long firstSequence, List<Mutation> mutations) {

  public LogRecord {
    mutations = List.copyOf(Objects.requireNonNull(mutations, "mutations"));
  }

  /** The sequence number of the last mutation ({@code firstSequence - 1} when there is none). */
  public long lastSequence() {
    return firstSequence + mutations.size() - 1;
  }
}
