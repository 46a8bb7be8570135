/**
 * The manifest: the set of live tables per level and the counters a reopen continues from ({@link
 * dev.strata.engine.manifest.Manifest}, {@link dev.strata.engine.manifest.FileMetadata}), persisted
 * as a log of checksummed edits ({@link dev.strata.engine.manifest.ManifestEdit}) appended by {@link
 * dev.strata.engine.manifest.ManifestLog} and rewritten whole as it grows ({@link
 * dev.strata.engine.manifest.ManifestFormat},
 * which also states the protocol that keeps a crash from losing or resurrecting a table).
 *
 * <p>Layering: depends on {@code dev.strata.engine.fs}, {@code dev.strata.engine.write} (limits),
 * the public exception types of {@code dev.strata.engine}, {@code dev.strata.sstable} ({@code
 * InternalKey}) and {@code dev.strata.checksum}.
 *
 * <pre>{@code
 * Manifest m = ManifestReader.readIfExists(dir).orElse(Manifest.empty());
 * List<FileMetadata> files = new ArrayList<>(m.files());
 * files.add(new FileMetadata(12, 0, size, entries, minSeq, maxSeq, smallest, largest, filterBytes));
 * ManifestWriter.write(dir, new Manifest(13, maxSeq, 11, files));   // durable on return
 * }</pre>
 */
package dev.strata.engine.manifest;
