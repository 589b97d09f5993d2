package dev.omnigraph.cli;

import java.util.Map;
import java.util.function.BiConsumer;

/**
 * Settings that must be in place before Quarkus boots, read from the raw command line because
 * picocli only runs after boot. Everything else is parsed by picocli as usual.
 */
final class BootSettings {

  private BootSettings() {}

  static void apply(String[] args) {
    apply(args, System::setProperty);
  }

  static void apply(String[] args, BiConsumer<String, String> set) {
    boolean serve = args.length > 0 && args[0].equals("serve");
    if (!serve) {
      // A CLI run keeps its stdout clean and never binds a port.
      set.accept("quarkus.http.host-enabled", "false");
      setIfAbsent("quarkus.log.level", "WARN", set);
      return;
    }
    Map<String, String> flags = Map.of(
        "--host", "quarkus.http.host",
        "--port", "quarkus.http.port",
        "--store", "omnigraph.storage.uri");
    for (int i = 1; i < args.length; i++) {
      String arg = args[i];
      for (Map.Entry<String, String> flag : flags.entrySet()) {
        if (arg.equals(flag.getKey()) && i + 1 < args.length) {
          set.accept(flag.getValue(), args[i + 1]);
        } else if (arg.startsWith(flag.getKey() + "=")) {
          set.accept(flag.getValue(), arg.substring(flag.getKey().length() + 1));
        } else {
          continue;
        }
        if (flag.getKey().equals("--store")) {
          // An explicitly named root is served as it is: only the embedded default becomes the example.
          set.accept("omnigraph.storage.example", "false");
        }
      }
    }
  }

  private static void setIfAbsent(String key, String value, BiConsumer<String, String> set) {
    if (System.getProperty(key) == null && System.getenv(key.toUpperCase().replace('.', '_')) == null) {
      set.accept(key, value);
    }
  }
}
