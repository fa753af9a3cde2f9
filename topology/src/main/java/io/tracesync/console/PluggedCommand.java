package io.tracesync.console;

/**
 * A subcommand that a command line finds on its class path ({@link java.util.ServiceLoader}, in the order of the
 * providing module's {@code META-INF/services} file) instead of naming it, so that the command line does not depend
 * on the module that holds it: the benchmarks' commands in the repository's {@code tracesync}. An implementation is
 * a picocli {@code @Command} with a public no-argument constructor.
 */
public interface PluggedCommand {
}
