package dev.omnigraph.server;

import java.util.Locale;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a family of configuration keys that carry a name inside the key, such as
 * {@code omnigraph.graphs.<id>.uri} or {@code omnigraph.auth.tokens.<actor>}, from both spellings a
 * deployment uses: the property ({@code -D} or application.properties) and the environment variable
 * ({@code OMNIGRAPH_GRAPHS_<ID>_URI}, as Kubernetes sets it). The environment spelling cannot carry
 * dots, dashes or case, so its names are lower-cased letters, digits and underscores; the property
 * spelling wins when both name the same id.
 *
 * <p>Only the bearer-token family is read this way now: every other {@code omnigraph.*} key is in
 * {@link OmnigraphConfig}, which says why the tokens stay hand-parsed (auth must fail closed on the
 * raw property names).
 */
final class KeyedConfig {

  private KeyedConfig() {}

  /**
   * @param names every configuration property name visible
   * @param value the value of a name
   * @param prefix e.g. {@code omnigraph.graphs}
   * @param suffix e.g. {@code uri}, or empty when the name ends the key
   * @param reserved ids that are another setting, in either spelling (e.g. {@code file}:
   *     {@code OMNIGRAPH_AUTH_TOKENS_FILE} is the tokens file, not a token of actor {@code file})
   */
  static SortedMap<String, String> read(Iterable<String> names, Function<String, String> value, String prefix,
      String suffix, java.util.Set<String> reserved) {
    Pattern dotted = dotted(prefix, suffix);
    Pattern env = env(prefix, suffix);
    SortedMap<String, String> fromEnv = new TreeMap<>();
    SortedMap<String, String> out = new TreeMap<>();
    for (String name : names) {
      Matcher d = dotted.matcher(name);
      if (d.matches()) {
        // A reserved id is another setting in every spelling: SmallRye also lists an environment
        // variable under a dotted rendering (OMNIGRAPH_AUTH_TOKENS_FILE as omnigraph.auth.tokens.file).
        if (!reserved.contains(d.group(1).toLowerCase(Locale.ROOT))) {
          out.put(d.group(1), value.apply(name));
        }
        continue;
      }
      Matcher e = env.matcher(name);
      if (e.matches()) {
        String id = e.group(1).toLowerCase(Locale.ROOT);
        if (!reserved.contains(id)) {
          fromEnv.put(id, value.apply(name));
        }
      }
    }
    fromEnv.forEach(out::putIfAbsent);
    return out;
  }

  /**
   * Whether {@code name} is a key of the family in either spelling ({@link #read} would take it,
   * or it is a reserved id's environment spelling). A caller that must fail closed uses it to find
   * keys that look like the family but that {@code read} silently skips, e.g. an id with a dot.
   */
  static boolean member(String name, String prefix, String suffix) {
    return dotted(prefix, suffix).matcher(name).matches() || env(prefix, suffix).matcher(name).matches();
  }

  private static Pattern dotted(String prefix, String suffix) {
    String tail = suffix.isEmpty() ? "" : "\\." + Pattern.quote(suffix);
    return Pattern.compile(Pattern.quote(prefix) + "\\.([A-Za-z0-9_-]+)" + tail);
  }

  private static Pattern env(String prefix, String suffix) {
    String envPrefix = prefix.toUpperCase(Locale.ROOT).replace('.', '_');
    // A dashed suffix (policy-file) is spelled with an underscore in the environment (POLICY_FILE).
    String envTail = suffix.isEmpty() ? "" : "_" + Pattern.quote(suffix.toUpperCase(Locale.ROOT).replace('-', '_'));
    return Pattern.compile(Pattern.quote(envPrefix) + "_([A-Z0-9_]+?)" + envTail);
  }
}
