package dev.omnigraph.cli;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Logging for a CLI run, which boots no Quarkus and so gets none of its log set-up: WARN and above,
 * on stderr, so that stdout stays the command's own machine-readable output (as
 * {@code quarkus.log.level=WARN} did when every run booted Quarkus). {@code -Dquarkus.log.level} or
 * {@code QUARKUS_LOG_LEVEL} (e.g. {@code INFO}, {@code DEBUG}) still raises it.
 */
final class CliLogging {

  private CliLogging() {}

  static void quiet() {
    String wanted = System.getProperty("quarkus.log.level", System.getenv("QUARKUS_LOG_LEVEL"));
    Level level = parse(wanted);
    // Libraries log through SLF4J into JBoss LogManager (the jar's binding) or through JUL: both roots.
    Logger.getLogger("").setLevel(level);
    try {
      org.jboss.logmanager.LogContext.getSystemLogContext().getLogger("").setLevel(level);
    } catch (LinkageError absent) {
      // Not on this class path (a test's): JUL's root above is then the only one.
    }
  }

  private static Level parse(String name) {
    if (name == null || name.isBlank()) {
      return Level.WARNING;
    }
    return switch (name.trim().toUpperCase(java.util.Locale.ROOT)) {
      case "TRACE", "ALL" -> Level.FINEST;
      case "DEBUG" -> Level.FINE;
      case "INFO" -> Level.INFO;
      case "ERROR", "FATAL" -> Level.SEVERE;
      case "OFF" -> Level.OFF;
      default -> Level.WARNING;
    };
  }
}
