/**
 * What a running database shows of itself, at no runtime dependency beyond the JDK: JDK Flight
 * Recorder events for flushes, compactions, write stalls and slow reads ({@link
 * dev.strata.engine.observe.FlushEvent} and its siblings, created only once the recorder is
 * initialised ({@link dev.strata.engine.observe.FlightRecording}); each costs nearly nothing while
 * JFR is off or the event disabled), the {@link dev.strata.engine.observe.DbMXBean} every open database
 * registers with the platform MBean server, and the {@code Db.describe()} text ({@link
 * dev.strata.engine.observe.DbDescription}).
 *
 * <p>Layering: depends on the engine's public types ({@code DbStats}, {@code WriteStats}), {@code
 * jdk.jfr} and {@code java.management}.
 *
 * <pre>{@code
 * // java -XX:StartFlightRecording:filename=strata.jfr ... ; then: jfr print --events 'dev.strata.*' strata.jfr
 * ObjectName name = MBeans.nameOf(dir);   // dev.strata:type=Db,path="/abs/dir"
 * long gets = (Long) ManagementFactory.getPlatformMBeanServer().getAttribute(name, "Gets");
 * System.out.println(db.describe());
 * }</pre>
 */
package dev.strata.engine.observe;
