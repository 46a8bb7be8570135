package dev.strata.bench.ycsb;

import java.nio.file.Path;
import java.util.List;

/**
 * The settings of one {@code strata-bench ycsb} run.
 *
 * @param records records loaded ({@code recordcount})
 * @param operations operations of every run phase ({@code operationcount})
 * @param fieldCount fields per record
 * @param fieldLength bytes per field
 * @param threads client thread counts; the whole sequence runs once for each
 * @param engines engines, alternated phase by phase
 * @param workloads phases in order
 * @param cacheBytes block cache of each engine
 * @param bitsPerKey filter bits per key of each engine
 * @param tree standard or smoke
 * @param out output folder
 * @param dbDir folder of the databases
 * @param jvmFlags JVM flags of every phase's process
 * @param phaseTimeoutSeconds longest a phase may take
 *
 * <p>Immutable.
 */
record YcsbSettings(long records, long operations, int fieldCount, int fieldLength,
    List<Integer> threads, List<YcsbEngine> engines, List<Workload> workloads, long cacheBytes,
    double bitsPerKey, String tree, Path out, Path dbDir, List<String> jvmFlags,
    long phaseTimeoutSeconds) {

  /** The logical bytes of one record: key and encoded fields. */
  long recordBytes() {
    long fields = (long) fieldCount * (Short.BYTES + "field0".length() + Integer.BYTES + fieldLength);
    return "user".length() + 19 + fields;
  }
}
