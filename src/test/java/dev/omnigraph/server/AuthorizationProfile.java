package dev.omnigraph.server;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The one profile of the authorization acceptance ({@link AuthorizationE2ETest}), without the shared
 * graphs and their server policy: graph {@code e2e} under the reference's e2e policy (its own
 * {@code policy-file}) and graph {@code dd} under no policy, which with tokens is DefaultDeny. Tokens
 * {@code act-andrew} (team, admins), {@code act-bruno} (team), each {@code <actor>-token}; graph
 * {@code scoped} under {@code E2eCases.SCOPED_POLICY} with its stored queries, and the tokens of its
 * Person-only reader {@code agent-p} and writer {@code agent-w}.
 */
public class AuthorizationProfile implements QuarkusTestProfile {

  @Override
  public boolean disableGlobalTestResources() {
    return true;
  }

  @Override
  public List<TestResourceEntry> testResources() {
    return List.of(new TestResourceEntry(Graphs.class));
  }

  /** Two fresh graph directories (initialized by the test before the service opens them) and the tokens. */
  public static class Graphs implements io.quarkus.test.common.QuarkusTestResourceLifecycleManager {
    @Override
    public Map<String, String> start() {
      try {
        Path root = Files.createTempDirectory("omnigraph-authz-");
        Path policy = Files.writeString(root.resolve("e2e-policy.yaml"), dev.omnigraph.policy.E2eCases.POLICY);
        java.util.Map<String, String> config = new java.util.HashMap<>(Map.of(
            "omnigraph.graphs.e2e.uri", root.resolve("e2e").toString(),
            "omnigraph.graphs.e2e.policy-file", policy.toString(),
            "omnigraph.graphs.dd.uri", root.resolve("dd").toString(),
            "omnigraph.storage.example", "false"));
        // Beyond the reference: per-type and per-query scopes on graph scoped, with stored queries.
        config.put("omnigraph.graphs.scoped.uri", root.resolve("scoped").toString());
        config.put("omnigraph.graphs.scoped.policy-file", Files.writeString(root.resolve("scoped-policy.yaml"),
            dev.omnigraph.policy.E2eCases.SCOPED_POLICY).toString());
        config.put("omnigraph.graphs.scoped.queries", Files.writeString(root.resolve("scoped.gq"),
            dev.omnigraph.policy.E2eCases.SCOPED_QUERIES).toString());
        for (String actor : List.of("act-andrew", "act-bruno", "agent-p", "agent-w")) {
          config.put("omnigraph.auth.tokens." + actor,
              HexFormat.of().formatHex(BearerTokens.sha256(RoutePolicy.token(actor))));
        }
        return config;
      } catch (java.io.IOException e) {
        throw new IllegalStateException(e);
      }
    }

    @Override
    public void stop() {}
  }
}
