package dev.omnigraph.server;

import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.eclipse.microprofile.config.Config;

/**
 * The configured bearer tokens (the token family is hand-parsed behind {@link OmnigraphConfig}: see
 * there why), as SHA-256 hashes mapped to actor ids: one entry per
 * {@code omnigraph.auth.tokens.<actor>=<sha256 hex>}, plus the lines {@code <actor>=<sha256 hex>} of
 * the file named by {@code omnigraph.auth.tokens-file} (env {@code OMNIGRAPH_AUTH_TOKENS_FILE}, a
 * mounted Secret). Only hashes are held; a presented token is hashed and compared with every
 * configured hash in constant time.
 *
 * <p>Auth configuration fails closed: a key under {@code omnigraph.auth.} (or its environment
 * spelling {@code OMNIGRAPH_AUTH_}) that is not one of the settings above, or that names an actor
 * outside {@code [A-Za-z0-9_-]+}, is a startup error naming the key. Skipping it would serve with
 * fewer tokens than the operator configured, down to none: auth off.
 */
@ApplicationScoped
class BearerTokens {

  private static final Pattern HEX64 = Pattern.compile("[0-9a-fA-F]{64}");
  private static final Pattern ACTOR = Pattern.compile("[A-Za-z0-9_-]+");
  static final String TOKENS = "omnigraph.auth.tokens";
  static final String TOKENS_FILE = "omnigraph.auth.tokens-file";
  static final String ALLOW_UNAUTHENTICATED = "omnigraph.auth.allow-unauthenticated";
  /**
   * The fixed auth keys in every spelling; everything else under the prefix must be a token key.
   * SmallRye lists an environment variable under its own name and also under a dotted rendering
   * ({@code OMNIGRAPH_AUTH_TOKENS_FILE} as {@code omnigraph.auth.tokens.file}), so those renderings
   * are fixed keys too, and {@code file} is no actor id.
   */
  private static final java.util.Set<String> FIXED_KEYS = java.util.Set.of(TOKENS_FILE, "OMNIGRAPH_AUTH_TOKENS_FILE",
      "omnigraph.auth.tokens.file", ALLOW_UNAUTHENTICATED, "OMNIGRAPH_AUTH_ALLOW_UNAUTHENTICATED",
      "omnigraph.auth.allow.unauthenticated");
  private static final java.util.Set<String> ALLOW_KEYS = java.util.Set.of(ALLOW_UNAUTHENTICATED,
      "OMNIGRAPH_AUTH_ALLOW_UNAUTHENTICATED", "omnigraph.auth.allow.unauthenticated");
  /** What SmallRye reads as a boolean (anything else it silently reads as false). */
  private static final java.util.Set<String> BOOLEANS = java.util.Set.of("true", "false", "yes", "no", "on", "off",
      "y", "n", "1", "0");

  /** One configured token. */
  record Entry(String actor, byte[] sha256) {}

  private final List<Entry> entries;

  @jakarta.inject.Inject
  BearerTokens(Config config) {
    java.util.function.Function<String, String> value = n -> config.getOptionalValue(n, String.class).orElse("");
    requireParsable(config.getPropertyNames(), value);
    TreeMap<String, String> hashes = new TreeMap<>(KeyedConfig.read(config.getPropertyNames(), value, TOKENS, "",
        java.util.Set.of("file")));
    Optional<String> file = OmnigraphConfig.of(config).auth().tokensFile();
    if (file.isPresent()) {
      hashes.putAll(readFile(Path.of(file.get())));
    }
    this.entries = parse(hashes);
  }

  BearerTokens(List<Entry> entries) {
    this.entries = List.copyOf(entries);
  }

  /**
   * Refuses every auth key this class would not read as configured.
   *
   * @throws IllegalStateException naming the first such key (never its value: it may be a secret)
   */
  static void requireParsable(Iterable<String> names, java.util.function.Function<String, String> value) {
    for (String name : names) {
      if (!(name.startsWith("omnigraph.auth.") || name.startsWith("OMNIGRAPH_AUTH_"))) {
        continue;
      }
      if (FIXED_KEYS.contains(name)) {
        if (ALLOW_KEYS.contains(name)) {
          String v = value.apply(name).strip().toLowerCase(Locale.ROOT);
          if (!BOOLEANS.contains(v)) {
            throw new IllegalStateException("configuration key " + name + " must be true or false");
          }
        }
        continue;
      }
      if (!KeyedConfig.member(name, TOKENS, "")) {
        throw new IllegalStateException("configuration key " + name + " is not an auth setting: tokens are "
            + TOKENS + ".<actor>=<sha256 hex> with <actor> of letters, digits, '_' and '-' only (no '.'), or lines of "
            + TOKENS_FILE + "; refusing to start rather than serve without that token");
      }
    }
  }

  static List<Entry> parse(java.util.Map<String, String> hashes) {
    List<Entry> out = new ArrayList<>();
    hashes.forEach((actor, hex) -> {
      String h = hex.trim();
      if (!HEX64.matcher(h).matches()) {
        throw new IllegalStateException("omnigraph.auth.tokens." + actor
            + " must be the SHA-256 of the token as 64 hex digits (e.g. printf %s TOKEN | sha256sum)");
      }
      out.add(new Entry(actor, HexFormat.of().parseHex(h.toLowerCase(Locale.ROOT))));
    });
    return List.copyOf(out);
  }

  private static java.util.Map<String, String> readFile(Path file) {
    TreeMap<String, String> out = new TreeMap<>();
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read omnigraph.auth.tokens-file " + file, e);
    }
    for (String line : lines) {
      String l = line.strip();
      if (l.isEmpty() || l.startsWith("#")) {
        continue;
      }
      int eq = l.indexOf('=');
      if (eq <= 0) {
        throw new IllegalStateException("omnigraph.auth.tokens-file " + file + ": expected actor=sha256hex, got a line "
            + "without '='");
      }
      String actor = l.substring(0, eq).strip();
      if (!ACTOR.matcher(actor).matches()) {
        throw new IllegalStateException(TOKENS_FILE + " " + file + ": actor '" + actor
            + "' must be letters, digits, '_' and '-' only");
      }
      out.put(actor, l.substring(eq + 1).strip());
    }
    return out;
  }

  /** The token actors, sorted: what the startup log may show (never a hash). */
  List<String> actors() {
    return entries.stream().map(Entry::actor).sorted().toList();
  }

  /** Whether any token is configured (then every {@code /graphs} route needs one). */
  boolean enabled() {
    return !entries.isEmpty();
  }

  /**
   * The actor of {@code token}, if it is configured. The token's hash is compared with every
   * configured hash by {@link MessageDigest#isEqual} (constant time for equal lengths) and the loop
   * never exits early, so the time taken does not tell which entry, or how much of one, matched.
   */
  Optional<String> actorOf(String token) {
    byte[] presented = sha256(token);
    String match = null;
    for (Entry e : entries) {
      if (MessageDigest.isEqual(presented, e.sha256()) && match == null) {
        match = e.actor();
      }
    }
    return Optional.ofNullable(match);
  }

  static byte[] sha256(String token) {
    return sha256(token.getBytes(StandardCharsets.UTF_8));
  }

  static byte[] sha256(byte[] bytes) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(bytes);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every JVM", e);
    }
  }
}
