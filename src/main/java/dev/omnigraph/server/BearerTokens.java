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
 * The configured bearer tokens, as SHA-256 hashes mapped to actor ids: one entry per
 * {@code omnigraph.auth.tokens.<actor>=<sha256 hex>}, plus the lines {@code <actor>=<sha256 hex>} of
 * the file named by {@code omnigraph.auth.tokens-file} (env {@code OMNIGRAPH_AUTH_TOKENS_FILE}, a
 * mounted Secret). Only hashes are held; a presented token is hashed and compared with every
 * configured hash in constant time.
 */
@ApplicationScoped
class BearerTokens {

  private static final Pattern HEX64 = Pattern.compile("[0-9a-fA-F]{64}");

  /** One configured token. */
  record Entry(String actor, byte[] sha256) {}

  private final List<Entry> entries;

  @jakarta.inject.Inject
  BearerTokens(Config config) {
    TreeMap<String, String> hashes = new TreeMap<>(KeyedConfig.read(config.getPropertyNames(),
        n -> config.getValue(n, String.class), "omnigraph.auth.tokens", "", java.util.Set.of("file")));
    Optional<String> file = config.getOptionalValue("omnigraph.auth.tokens-file", String.class);
    if (file.isPresent()) {
      hashes.putAll(readFile(Path.of(file.get())));
    }
    this.entries = parse(hashes);
  }

  BearerTokens(List<Entry> entries) {
    this.entries = List.copyOf(entries);
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
      out.put(l.substring(0, eq).strip(), l.substring(eq + 1).strip());
    }
    return out;
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
    try {
      return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every JVM", e);
    }
  }
}
