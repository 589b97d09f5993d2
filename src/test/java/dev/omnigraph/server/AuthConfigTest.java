package dev.omnigraph.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Token hashing and matching, and the startup refusal of an unauthenticated non-loopback bind. */
class AuthConfigTest {

  private static String hex(String token) {
    return HexFormat.of().formatHex(BearerTokens.sha256(token));
  }

  @Test
  void aTokenResolvesToItsActorByItsSha256Only() {
    Map<String, String> hashes = new TreeMap<>();
    hashes.put("alice", hex("a-token"));
    hashes.put("bob", hex("b-token").toUpperCase());
    BearerTokens tokens = new BearerTokens(BearerTokens.parse(hashes));
    assertThat(tokens.enabled()).isTrue();
    assertThat(tokens.actorOf("a-token")).contains("alice");
    assertThat(tokens.actorOf("b-token")).contains("bob");
    assertThat(tokens.actorOf("a-toke")).isEmpty();
    assertThat(tokens.actorOf("a-token ")).isEmpty();
    // The configured value is a hash: presenting the hash itself is not the token.
    assertThat(tokens.actorOf(hex("a-token"))).isEmpty();
    assertThat(new BearerTokens(List.of()).enabled()).isFalse();
    assertThat(BearerTokens.sha256("abc")).isEqualTo(HexFormat.of()
        .parseHex("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
  }

  @Test
  void aHashThatIsNotSha256HexIsRefusedAtStartup() {
    assertThatThrownBy(() -> BearerTokens.parse(Map.of("alice", "plain-text-token")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("omnigraph.auth.tokens.alice").hasMessageContaining("64 hex digits");
  }

  @Test
  void theEnvironmentSpellingsOfTheFixedKeysStartTheServiceAsTheDocsSay(@TempDir Path dir) throws Exception {
    // SmallRye lists OMNIGRAPH_AUTH_TOKENS_FILE also as omnigraph.auth.tokens.file: that rendering
    // was read as the token of an actor "file" and refused the start (a packaged serve with the
    // documented environment variable would not come up).
    Path file = dir.resolve("tokens");
    Files.writeString(file, "ci=" + hex("ci-token") + "\n");
    org.eclipse.microprofile.config.Config config = new io.smallrye.config.SmallRyeConfigBuilder()
        .withSources(new io.smallrye.config.EnvConfigSource(Map.of("OMNIGRAPH_AUTH_TOKENS_FILE", file.toString(),
            "OMNIGRAPH_AUTH_ALLOW_UNAUTHENTICATED", "false", "OMNIGRAPH_AUTH_TOKENS_ALICE", hex("a-token")), 300))
        .build();
    List<String> names = new java.util.ArrayList<>();
    config.getPropertyNames().forEach(names::add);
    assertThat(names).contains("omnigraph.auth.tokens.file", "omnigraph.auth.allow.unauthenticated");
    BearerTokens tokens = new BearerTokens(config);
    assertThat(tokens.actorOf("ci-token")).contains("ci");
    assertThat(tokens.actorOf("a-token")).contains("alice");
    assertThat(tokens.actorOf(file.toString())).isEmpty();
  }

  @Test
  void aTokensFileMapsActorsToHashes(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("tokens");
    Files.writeString(file, "# actor=sha256\nci = " + hex("ci-token") + "\n\nops=" + hex("ops-token") + "\n");
    org.eclipse.microprofile.config.Config config = new io.smallrye.config.SmallRyeConfigBuilder()
        .withDefaultValues(Map.of("omnigraph.auth.tokens-file", file.toString(),
            "omnigraph.auth.tokens.dev", hex("dev-token")))
        .build();
    BearerTokens tokens = new BearerTokens(config);
    assertThat(tokens.actorOf("ci-token")).contains("ci");
    assertThat(tokens.actorOf("ops-token")).contains("ops");
    assertThat(tokens.actorOf("dev-token")).contains("dev");
  }

  private static org.eclipse.microprofile.config.Config config(Map<String, String> values) {
    return new io.smallrye.config.SmallRyeConfigBuilder().withDefaultValues(values).build();
  }

  @Test
  void anAuthKeyThatDoesNotParseIsAStartupErrorNamingItNeverAuthOff() {
    // The only token names an actor with a dot: skipped, it left the server with no token, i.e. auth off.
    assertThatThrownBy(() -> new BearerTokens(config(Map.of("omnigraph.auth.tokens.alice.smith", hex("t")))))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("configuration key omnigraph.auth.tokens.alice.smith is not an auth setting: tokens are "
            + "omnigraph.auth.tokens.<actor>=<sha256 hex> with <actor> of letters, digits, '_' and '-' only (no '.'), "
            + "or lines of omnigraph.auth.tokens-file; refusing to start rather than serve without that token");
    for (String key : List.of("omnigraph.auth.tokens", "omnigraph.auth.token.alice", "omnigraph.auth.tokens-fil",
        "omnigraph.auth.tokens.", "omnigraph.auth.tokens.al ice", "OMNIGRAPH_AUTH_TOKENS_alice", "OMNIGRAPH_AUTH_TOKEN_ALICE")) {
      Map<String, String> values = new TreeMap<>(Map.of(key, hex("t"), "omnigraph.auth.tokens.bob", hex("b")));
      assertThatThrownBy(() -> new BearerTokens(config(values))).as(key)
          .isInstanceOf(IllegalStateException.class)
          .hasMessageStartingWith("configuration key " + key + " is not an auth setting")
          .hasMessageNotContaining(hex("t"));
    }
    assertThatThrownBy(() -> new BearerTokens(config(Map.of("omnigraph.auth.allow-unauthenticated", "sure"))))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("configuration key omnigraph.auth.allow-unauthenticated must be true or false");
    // What does parse still starts, in both spellings.
    BearerTokens ok = new BearerTokens(config(Map.of("omnigraph.auth.tokens.alice_1", hex("a"),
        "OMNIGRAPH_AUTH_TOKENS_BOB", hex("b"), "omnigraph.auth.allow-unauthenticated", "false",
        "OMNIGRAPH_AUTH_ALLOW_UNAUTHENTICATED", "TRUE")));
    assertThat(ok.actors()).containsExactly("alice_1", "bob");
  }

  @Test
  void aTokensFileLineWithAnActorThatDoesNotParseIsAStartupError(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("tokens");
    Files.writeString(file, "ops=" + hex("ops-token") + "\nalice.smith=" + hex("a-token") + "\n");
    assertThatThrownBy(() -> new BearerTokens(config(Map.of("omnigraph.auth.tokens-file", file.toString()))))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("omnigraph.auth.tokens-file " + file + ": actor 'alice.smith' must be letters, digits, '_' and '-' only");
  }

  @Test
  void theStartupLineStatesTheAuthModeAndTheActorsNeverTheHashes() {
    BearerTokens tokens = new BearerTokens(config(Map.of("omnigraph.auth.tokens.bob", hex("b"),
        "omnigraph.auth.tokens.alice", hex("a"))));
    String line = ExposureGuard.describe(tokens.actors(), "0.0.0.0", false);
    assertThat(line).isEqualTo("auth: bearer tokens required on /graphs; token actors: alice, bob");
    assertThat(line).doesNotContain(hex("a")).doesNotContain(hex("b"));
    assertThat(ExposureGuard.describe(List.of(), "127.0.0.1", false))
        .isEqualTo("auth: off, no bearer token configured (loopback only, host 127.0.0.1)");
    assertThat(ExposureGuard.describe(List.of(), "0.0.0.0", true))
        .isEqualTo("auth: off, no bearer token configured (omnigraph.auth.allow-unauthenticated=true, host 0.0.0.0)");
  }

  @Test
  void withoutTokensOnlyLoopbackIsServedUnlessExplicitlyAllowed() {
    ExposureGuard.check("127.0.0.1", false, false);
    ExposureGuard.check("localhost", false, false);
    ExposureGuard.check("::1", false, false);
    ExposureGuard.check("0.0.0.0", true, false);
    ExposureGuard.check("0.0.0.0", false, true);
    assertThatThrownBy(() -> ExposureGuard.check("0.0.0.0", false, false))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("non-loopback address 0.0.0.0")
        .hasMessageContaining("omnigraph.auth.allow-unauthenticated=true");
    assertThatThrownBy(() -> ExposureGuard.check("10.1.2.3", false, false)).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void keyedSettingsAreReadFromPropertiesAndFromTheEnvironmentSpelling() {
    Map<String, String> config = new java.util.LinkedHashMap<>();
    config.put("omnigraph.auth.tokens.alice", "a");
    config.put("OMNIGRAPH_AUTH_TOKENS_BOB", "b");
    config.put("OMNIGRAPH_AUTH_TOKENS_ALICE", "ignored: the property spelling wins");
    config.put("OMNIGRAPH_AUTH_TOKENS_FILE", "/etc/tokens");
    config.put("omnigraph.auth.tokens-file", "/etc/tokens");
    config.put("OMNIGRAPH_GRAPHS_SOCIAL_URI", "s3://b/social");
    config.put("omnigraph.graphs.main-graph.uri", "/data/g");
    config.put("OMNIGRAPH_GRAPHS_X_Y", "not a uri key");
    assertThat(KeyedConfig.read(config.keySet(), config::get, "omnigraph.auth.tokens", "", java.util.Set.of("file")))
        .containsExactly(Map.entry("alice", "a"), Map.entry("bob", "b"));
    assertThat(KeyedConfig.read(config.keySet(), config::get, "omnigraph.graphs", "uri", java.util.Set.of()))
        .containsExactly(Map.entry("main-graph", "/data/g"), Map.entry("social", "s3://b/social"));
  }
}
