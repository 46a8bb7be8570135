/**
 * Leveled compaction: {@link dev.strata.engine.compaction.CompactionPicker} chooses what to merge,
 * {@link dev.strata.engine.compaction.CompactionWriter} writes the merge as new tables (flush uses it
 * too, with one memtable as input), and {@link dev.strata.engine.compaction.OutputTables} runs
 * either and opens the outputs. Installing the result is the engine's job, under its mutex.
 *
 * <pre>{@code
 * Compaction c = picker.pick(version);
 * List<FileMetadata> out = new CompactionWriter(dir, files, c.outputLevel(), tableOptions,
 *     OutputCuts.atSize(target), fileNumbers::next, row -> !version.deeperLevelsCover(c.outputLevel(), row),
 *     SnapshotStripes.of(liveSnapshotSequences)).write(merged);
 * }</pre>
 */
package dev.strata.engine.compaction;
