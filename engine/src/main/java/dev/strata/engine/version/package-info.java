/**
 * The engine's table set over time: {@link dev.strata.engine.version.TableRef} (a live table),
 * {@link dev.strata.engine.version.TableCache} (the bounded set of open readers, {@link
 * dev.strata.engine.version.TableHandle}, every read holds one from), {@link
 * dev.strata.engine.version.Version} (one immutable set of tables per level), {@link
 * dev.strata.engine.version.VersionEdit} (what a flush or compaction changes), {@link
 * dev.strata.engine.version.VersionSet} (the current version and the manifest that makes each
 * change durable), {@link dev.strata.engine.version.ObsoleteFiles} (the version set's deletion of
 * the files no version needs) and {@link dev.strata.engine.version.ReadView} (memtables plus a
 * version: what one read sees).
 *
 * <p>Lifetimes, each in one place. Versions and table entries are reference counts that fail fast
 * (use after release, over-release). What every read holds, a view and a table reader, is one
 * {@link dev.strata.engine.version.StripedRefCount} each, so concurrent reads write no shared line.
 * A table leaves the table cache, and is deleted if obsolete, only when no version lists it; a
 * reader is closed only when no read holds it, and its file deleted only after it is closed; a
 * version is released only when no read view holds it; so compaction never removes a file under a
 * running Get or scan. A read never deletes a file itself: what it lets go is purged on the deletes
 * thread ({@link dev.strata.engine.version.BackgroundDeletes}).
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
