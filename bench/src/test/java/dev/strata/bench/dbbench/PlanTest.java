package dev.strata.bench.dbbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The order of phases, and the pairing of the engines' rows for the ratios, by step. */
final class PlanTest {
  private static final List<EngineKind> ENGINES =
      List.of(EngineKind.STRATA, EngineKind.ROCKSDB_LRU, EngineKind.ROCKSDB_HCC);

  @Test
  void of_readersBesideAWriter_runOncePerThreadCountAndDatabase_andARepeatedReadHasItsStep() {
    Plan plan = Plan.of(List.of(Benchmark.FILLRANDOM, Benchmark.READRANDOM,
            Benchmark.READWHILEOVERWRITING, Benchmark.READRANDOM),
        ENGINES, List.of(1, 2), List.of(false), false);
    List<String> phases = plan.phases().stream()
        .map(p -> p.step() + " " + p.benchmark().label() + " " + p.engine().label() + " t"
            + p.threads())
        .toList();
    assertEquals(List.of(
        "1 fillrandom strata t1", "1 fillrandom rocksdb-lru t1",
        "2 readrandom strata t1", "2 readrandom rocksdb-lru t1", "2 readrandom rocksdb-hcc t1",
        "2 readrandom strata t2", "2 readrandom rocksdb-lru t2", "2 readrandom rocksdb-hcc t2",
        "3 readwhileoverwriting strata t1", "3 readwhileoverwriting rocksdb-lru t1",
        "3 readwhileoverwriting strata t2", "3 readwhileoverwriting rocksdb-lru t2",
        "4 readrandom strata t1", "4 readrandom rocksdb-lru t1", "4 readrandom rocksdb-hcc t1",
        "4 readrandom strata t2", "4 readrandom rocksdb-lru t2", "4 readrandom rocksdb-hcc t2"),
        phases);
  }

  @Test
  void ratios_pairRowsOfTheSameStep_andTheReadersBesideAWriter() {
    List<Result> rows = List.of(
        row(EngineKind.STRATA, Benchmark.READRANDOM, 2, 300, null),
        row(EngineKind.ROCKSDB_LRU, Benchmark.READRANDOM, 2, 100, null),
        row(EngineKind.STRATA, Benchmark.READWHILEOVERWRITING, 3, 50, 90.0),
        row(EngineKind.ROCKSDB_LRU, Benchmark.READWHILEOVERWRITING, 3, 100, 60.0),
        row(EngineKind.STRATA, Benchmark.READRANDOM, 4, 100, null),
        row(EngineKind.ROCKSDB_LRU, Benchmark.READRANDOM, 4, 200, null));
    Ratios.add(rows);
    assertEquals(3.0, rows.get(0).number(Column.RATIO_TO_ROCKSDB_LRU));
    assertNull(rows.get(0).number(Column.READER_RATIO_TO_ROCKSDB));
    assertEquals(0.5, rows.get(2).number(Column.RATIO_TO_ROCKSDB_LRU));
    assertEquals(1.5, rows.get(2).number(Column.READER_RATIO_TO_ROCKSDB));
    assertEquals(0.5, rows.get(4).number(Column.RATIO_TO_ROCKSDB_LRU));
  }

  private static Result row(EngineKind engine, Benchmark benchmark, int step, double opsPerSec,
      Double readerOpsPerSec) {
    return new Result().set(Column.ENGINE, engine.label()).set(Column.BENCHMARK, benchmark.label())
        .set(Column.THREADS, 1).set(Column.CACHE_STATE, "warm").set(Column.STEP, step)
        .set(Column.OPS_PER_SEC, opsPerSec).set(Column.READER_OPS_PER_SEC, readerOpsPerSec);
  }
}
