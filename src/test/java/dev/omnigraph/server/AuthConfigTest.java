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
