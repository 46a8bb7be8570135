package dev.strata.engine;

import dev.strata.engine.CellModel.Op;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The deterministic workload of the crash tests: step {@code id} of run {@code seed} is the same in
 * the child that performs it ({@link CrashWriter}) and in the test that checks it, so the child only
 * has to report which steps it finished.
 *
 * <p>Thread-safe (stateless).
 */
final class CrashWorkload {
  /** Rows the workload writes: enough for several tables per level, few enough for collisions. */
  static final int ROWS = 300;

  /** What one step does. */
  enum Kind {
    WRITE,
    BATCH,
    FLUSH,
    COMPACT
  }

  /** One step: a single write, a batch (all or nothing), or a flush or compaction request. */
  record Step(Kind kind, List<Op> ops) {
    void applyTo(Db db) throws IOException {
      switch (kind) {
        case WRITE -> ops.get(0).applyTo(db);
        case BATCH -> {
          WriteBatch b = new WriteBatch();
          ops.forEach(op -> op.addTo(b));
          db.write(b);
        }
        case FLUSH -> db.flush();
        case COMPACT -> db.compact();
      }
    }

    void applyTo(CellModel m) {
      m.apply(ops);
    }
  }

  private CrashWorkload() {}

  /** The options of the child and of the checking opens: tiny, so flushes and compactions run. */
  static DbOptions options() {
    return DbOptions.builder()
        .memtableBytes(4096)
        .blockSizeBytes(256)
        .bloomChunkBytes(128)
        .bloomType(BloomType.ROWCOL)
        .level0CompactionTrigger(2)
        .targetFileSizeBytes(4096)
        .maxBytesForLevelBase(16 * 1024)
        .levelSizeMultiplier(2)
        .build();
  }

  static Step step(long seed, long id) {
    Random r = new Random(seed * 0x9E3779B97F4A7C15L + id);
    int dice = r.nextInt(1000);
    if (dice < 5) {
      return new Step(Kind.FLUSH, List.of());
    }
    if (dice < 7) {
      return new Step(Kind.COMPACT, List.of());
    }
    if (dice < 200) {
      List<Op> ops = new ArrayList<>();
      for (int i = 1 + r.nextInt(10); i > 0; i--) {
        ops.add(op(r, id));
      }
      return new Step(Kind.BATCH, ops);
    }
    return new Step(Kind.WRITE, List.of(op(r, id)));
  }

  private static Op op(Random r, long id) {
    byte[] row = ("row" + r.nextInt(ROWS)).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    int dice = r.nextInt(100);
    if (dice < 5) {
      return new Op(Op.Kind.DELETE_ROW, row, null, null);
    }
    byte[] column = r.nextInt(4) == 0 ? new byte[0] : new byte[] {(byte) ('a' + r.nextInt(5))};
    if (dice < 15) {
      return new Op(Op.Kind.DELETE, row, column, null);
    }
    byte[] value = new byte[8 + r.nextInt(r.nextInt(20) == 0 ? 2000 : 40)];
    r.nextBytes(value);
    // The step id in the value, so a value from a lost or replayed step is recognisable.
    for (int i = 0; i < 8; i++) {
      value[i] = (byte) (id >>> (56 - 8 * i));
    }
    return new Op(Op.Kind.PUT, row, column, value);
  }
}
