/**
 * The engine's table set over time: {@link dev.strata.engine.version.TableRef} (a live table),
 * {@link dev.strata.engine.version.TableCache} (the bounded set of open readers every read leases
 * from), {@link dev.strata.engine.version.Version} (one immutable set of tables per level),
 * {@link dev.strata.engine.version.VersionEdit} (what a flush or compaction changes), {@link
 * dev.strata.engine.version.VersionSet} (the current version and the manifest that makes each
 * change durable) and {@link dev.strata.engine.version.ReadView} (memtables plus a version: what
 * one read sees).
 *
 * <p>Lifetimes are reference counts that fail fast (use after release, over-release). A table is
 * dropped from the table cache, and deleted if obsolete, only when no version lists it; a reader is
 * closed only when no read leases it, and its file deleted only after it is closed; a version is
 * released only when no read view holds it; so compaction never removes a file under a running Get
 * or scan. A read never deletes a file itself: what it lets go is reclaimed on the deletes thread
 * ({@link dev.strata.engine.version.BackgroundDeletes}).
 *
 * <pre>{@code
 * ReadView view = acquireCurrentView();      // loop: current.tryAcquire()
 * try {
 *   TableRef t = view.version().tableCovering(1, row);
 *   if (t != null) result = t.get(probe, snapshot);
 * } finally {
 *   view.release();
 * }
 * }</pre>
 */
package dev.strata.engine.version;
