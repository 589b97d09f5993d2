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
 * {@code act-andrew} (team, admins), {@code act-bruno} (team), {@code act-carla}, each
 * {@code <actor>-token}. Graph {@code live} ({@link PolicyReloadAdmissionTest}) has a policy file the
 * test rewrites ({@link #LIVE_A} at start), polled every 200 ms; {@code act-carla} may have 2 requests
 * in flight. Graph {@code scoped} is under {@code E2eCases.SCOPED_POLICY} with its stored queries, and
 * the tokens of its Person-only reader {@code agent-p} and writer {@code agent-w}.
 */
public class AuthorizationProfile implements QuarkusTestProfile {

  /** Graph {@code live}'s policy at start: the team reads and exports anywhere, changes unprotected branches. */
  static final String LIVE_A = """
      version: 1
      groups:
        team: [act-bruno, act-carla]
      protected_branches: [main]
      rules:
        - id: team-read
          allow: { actors: { group: team }, actions: [read, export], branch_scope: any }
        - id: team-write
          allow: { actors: { group: team }, actions: [change], branch_scope: unprotected }
      """;

  /** {@link #LIVE_A} with the team's changes on every branch, {@code main} included. */
  static final String LIVE_B = LIVE_A.replace("actions: [change], branch_scope: unprotected",
      "actions: [change], branch_scope: any");

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
        Path policy = Files.writeString(root.resolve("e2e-policy.yaml"), dev.omnigraph.engine.policy.E2eCases.POLICY);
        Path live = Files.writeString(root.resolve("live-policy.yaml"), LIVE_A);
        java.util.Map<String, String> config = new java.util.HashMap<>(Map.of(
            "omnigraph.graphs.e2e.uri", root.resolve("e2e").toString(),
            "omnigraph.graphs.e2e.policy-file", policy.toString(),
            "omnigraph.graphs.dd.uri", root.resolve("dd").toString(),
            "omnigraph.storage.example", "false"));
        config.put("omnigraph.graphs.live.uri", root.resolve("live").toString());
        config.put("omnigraph.graphs.live.policy-file", live.toString());
        config.put("omnigraph.policy.reload-interval", "200ms");
        config.put("omnigraph.admission.actors.act-carla", "2");
        // Beyond the reference: per-type and per-query scopes on graph scoped, with stored queries.
        config.put("omnigraph.graphs.scoped.uri", root.resolve("scoped").toString());
        config.put("omnigraph.graphs.scoped.policy-file", Files.writeString(root.resolve("scoped-policy.yaml"),
            dev.omnigraph.engine.policy.E2eCases.SCOPED_POLICY).toString());
        config.put("omnigraph.graphs.scoped.queries", Files.writeString(root.resolve("scoped.gq"),
            dev.omnigraph.engine.policy.E2eCases.SCOPED_QUERIES).toString());
        for (String actor : List.of("act-andrew", "act-bruno", "act-carla", "agent-p", "agent-w")) {
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
