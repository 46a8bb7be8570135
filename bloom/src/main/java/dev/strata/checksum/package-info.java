/**
 * Checksums shared by every on-disk format of Strata (filter chunks, table blocks, log records,
 * manifest): masked CRC32C. It lives in the bottom module so that every layer computes them one way.
 *
 * <pre>{@code
 * int stored = Checksums.maskedCrc32c(block, 0, length);
 * if (stored != readFromTrailer) throw new CorruptionException(file, offset, "crc mismatch");
 * }</pre>
 */
package dev.strata.checksum;
