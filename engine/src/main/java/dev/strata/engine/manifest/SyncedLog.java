package dev.strata.engine.manifest;

/**
 * A log whose first {@code bytes} bytes were forced to the device before the manifest recorded it
 * (at a clean close): whatever happens later, those bytes must replay whole, so damage or a cut
 * inside them is corruption, never a torn tail.
 *
 * <p>Immutable.
 *
 * @param logNumber the log's file number ({@code NNNNNN.log})
 * @param bytes how many bytes from the start of the file, header included, were forced
 */
public record SyncedLog(long logNumber, long bytes) {}
