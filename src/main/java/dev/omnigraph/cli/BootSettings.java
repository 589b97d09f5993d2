package dev.omnigraph.cli;

import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/**
 * Settings that must be in place before Quarkus boots. Picocli runs the command only after boot, so
 * the arguments are parsed here first (the same tree, nothing executed): only a {@code serve} that
 * parses cleanly and asks for no help or version starts the HTTP service. Anything else,
 * {@code serve --help} and a mistyped {@code serve} included, boots with HTTP off, which also keeps the
 * service's startup (graph open, writer lease) from running; picocli then prints the help or the
 * usage error.
 */
final class BootSettings {

  private BootSettings() {}

  static void apply(String[] args) {
    apply(args, System::setProperty);
  }

  static void apply(String[] args, BiConsumer<String, String> set) {
    Optional<ParseResult> serve = serveRun(args);
    if (serve.isEmpty()) {
      // A CLI run keeps its stdout clean and never binds a port.
      set.accept("quarkus.http.host-enabled", "false");
      setIfAbsent("quarkus.log.level", "WARN", set);
      return;
    }
    Map<String, String> flags = Map.of(
        "--host", "quarkus.http.host",
        "--port", "quarkus.http.port",
        "--store", "omnigraph.storage.uri");
    for (Map.Entry<String, String> flag : flags.entrySet()) {
      Object value = serve.get().matchedOptionValue(flag.getKey(), null);
      if (value != null) {
        set.accept(flag.getValue(), value.toString());
      }
    }
    if (serve.get().hasMatchedOption("--store")) {
      // An explicitly named root is served as it is: only the embedded default becomes the example.
      set.accept("omnigraph.storage.example", "false");
    }
  }

  /** The parse of {@code serve} when these arguments start the service; empty for every other run. */
  static Optional<ParseResult> serveRun(String[] args) {
    ParseResult parsed;
    try {
      parsed = RootCommand.commandLine(null).parseArgs(args);
    } catch (CommandLine.ParameterException e) {
      return Optional.empty(); // the run itself reports it, with HTTP off
    }
    ParseResult serve = null;
    for (ParseResult level = parsed; level != null; level = level.subcommand()) {
      if (level.isUsageHelpRequested() || level.isVersionHelpRequested()) {
        return Optional.empty();
      }
      serve = level;
    }
    return serve != parsed && serve.commandSpec().userObject() instanceof ServeCommand
        ? Optional.of(serve) : Optional.empty();
  }

  private static void setIfAbsent(String key, String value, BiConsumer<String, String> set) {
    if (System.getProperty(key) == null && System.getenv(key.toUpperCase().replace('.', '_')) == null) {
      set.accept(key, value);
    }
  }
}
