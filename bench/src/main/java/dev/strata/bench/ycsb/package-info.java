/**
 * {@code strata-bench ycsb}: YCSB 0.17.0's own {@code site.ycsb.Client} and CoreWorkload A-F
 * against Strata ({@link dev.strata.bench.ycsb.StrataBinding}) and RocksDB ({@link
 * dev.strata.bench.ycsb.RocksDbBinding}).
 *
 * <p>The two bindings share everything but the engine calls ({@code KvBinding}): a record is one
 * value ({@code RecordCodec}), an update is a read-modify-write of it, a scan a cursor from the
 * start key; both engines are opened in dbbench's parity setup ({@code dbbench.Parity}) once per
 * process and shared by YCSB's client threads ({@code Shared}). YCSB's client calls {@code
 * System.exit}, so {@code YcsbRun} starts every phase as a JVM of its own through dbbench's {@code
 * ChildLauncher}, engines alternated phase by phase, and reads the measurements YCSB exports
 * ({@code YcsbExport}) into {@code results.csv}, {@code report.md} and {@code ycsb.png}.
 */
package dev.strata.bench.ycsb;
