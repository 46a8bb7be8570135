/**
 * The read path's pieces: {@link dev.strata.engine.read.InternalIterator} (the shape of every
 * source), {@link dev.strata.engine.read.MergingIterator}, {@link
 * dev.strata.engine.read.NewestVersions} (tombstones applied to a merged stream, shared with
 * compaction), {@link dev.strata.engine.read.Verdict} (the point-read decision of one source),
 * {@link dev.strata.engine.read.DbScanner} and {@link dev.strata.engine.read.OpenReaders} (the
 * scanners a closing database must close), {@link dev.strata.engine.read.ReadPathWarmUp} (the Get
 * path run once per JVM at open, on the side, so that loading it is the open's cost), {@link
 * dev.strata.engine.read.OverlappedReads} and {@link dev.strata.engine.read.OverlappedLevel} (a
 * cold batched Get's table reads on several threads, so the device serves them together).
 *
 * <pre>{@code
 * MergingIterator merged = new MergingIterator(sources);   // memtables and tables
 * try (DbScanner s = new DbScanner(view, merged, snapshot, from, to, openReaders)) {
 *   while (s.hasNext()) use(s.next());
 * }
 * }</pre>
 */
package dev.strata.engine.read;
