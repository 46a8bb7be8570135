/**
 * The database directory on disk: file names ({@link dev.strata.engine.fs.FileNames}), the
 * exclusive directory lock ({@link dev.strata.engine.fs.DirectoryLock}), durable directory changes
 * and atomic file replacement ({@link dev.strata.engine.fs.Directories}), and closing helpers for
 * the success-flag pattern ({@link dev.strata.engine.fs.Closeables}), the bounds-checked
 * parsing of bytes read from a file ({@link dev.strata.engine.fs.ByteCursor}), and the file layer
 * the engine writes through ({@link dev.strata.engine.fs.FileLayer}), which tests replace with one
 * that simulates power loss and full disks.
 *
 * <p>Layering: depends on the JDK and on {@code dev.strata.engine.CorruptionException} only; the
 * log, the manifest and {@code Db} build on it.
 *
 * <pre>{@code
 * Files.createDirectories(dir);
 * DirectoryLock lock = DirectoryLock.acquire(dir);     // IOException "... is locked: ..." if held
 * Path log = FileNames.log(dir, 13);                   // dir/000013.log
 * FileNames.parse(log).ifPresent(n -> System.out.println(n.type() + " " + n.number()));
 * Directories.fsync(dir);                              // the new entry survives a power loss
 * lock.close();
 * }</pre>
 */
package dev.strata.engine.fs;
