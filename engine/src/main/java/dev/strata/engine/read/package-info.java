/**
 * The read path's pieces: {@link dev.strata.engine.read.InternalIterator} (the shape of every
 * source), {@link dev.strata.engine.read.MergingIterator}, {@link
 * dev.strata.engine.read.NewestVersions} (tombstones applied to a merged stream, shared with
 * compaction), {@link dev.strata.engine.read.Verdict} (the point-read decision of one source),
 * {@link dev.strata.engine.read.DbScanner} and {@link dev.strata.engine.read.OpenReaders} (the
 * scanners a closing database must close), {@link dev.strata.engine.read.ReadPath} (the order a
 * read consults its sources in), {@link dev.strata.engine.read.BatchedGets} (many Gets as one plan
 * and its execution) with {@link dev.strata.engine.read.ReadThreads} (the threads a batch may run
 * parts of itself on, when the options ask for them), and {@link
 * dev.strata.engine.read.ReadPathWarmUp} (the read paths run once per JVM at an open that asks for
 * it, so that loading them is the open's cost).
 *
 * <pre>{@code
 * MergingIterator merged = new MergingIterator(sources);   // memtables and tables
 * try (DbScanner s = new DbScanner(view, merged, snapshot, from, to, openReaders)) {
 *   while (s.hasNext()) use(s.next());
 * }
 * }</pre>
 */
package dev.strata.engine.read;
