package dev.omnigraph.server;

import dev.omnigraph.api.policy.PolicyAction;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The policy action each HTTP route needs, declared once (docs/authorization.md renders it): the
 * engine gate and the few route-level checks in {@link GraphResource} enforce these, and
 * {@code RouteAuthorizationTest} walks every route of the published OpenAPI document, fails on one
 * missing here, and tries each allowed and denied over HTTP. Branch scopes follow the reference.
 */
final class RouteActions {

  private RouteActions() {}

  /**
   * One route.
   *
   * @param action what it needs; empty for a public route ({@code /healthz})
   * @param with what the usual request needs besides (a stored read query also needs {@code read})
   * @param scope which branch the decision is for, in words
   * @param deniedStatus 403, or 404 where the reference hides a denial as a miss (stored queries)
   */
  record Route(String method, String path, Optional<PolicyAction> action, Set<PolicyAction> with, String scope,
      int deniedStatus) {}

  private static Route route(String method, String path, PolicyAction action, String scope) {
    return new Route(method, path, Optional.of(action), Set.of(), scope, 403);
  }

  private static final String G = "/graphs/{graph_id}";

  static final List<Route> ROUTES = List.of(
      route("GET", "/graphs", PolicyAction.GRAPH_LIST, "server (the server policy)"),
      route("POST", G + "/query", PolicyAction.READ, "branch read (a snapshot's own branch; default main)"),
      route("POST", G + "/mutate", PolicyAction.CHANGE, "branch written (default main)"),
      route("POST", G + "/mutate/if-graph-commit", PolicyAction.CHANGE, "branch written (default main)"),
      route("POST", G + "/load/ndjson", PolicyAction.CHANGE,
          "branch loaded; with from naming a new branch also branch_create (from -> branch)"),
      route("POST", G + "/load", PolicyAction.CHANGE, "as load/ndjson"),
      route("POST", G + "/ingest", PolicyAction.CHANGE, "as load/ndjson"),
      route("GET", G + "/queries", PolicyAction.READ, "main"),
      new Route("POST", G + "/queries/{name}", Optional.of(PolicyAction.INVOKE_QUERY), Set.of(PolicyAction.READ),
          "none; then read (or change, for a stored mutation) on the branch it runs on", 404),
      new Route("POST", G + "/queries/{name}/if-graph-commit", Optional.of(PolicyAction.INVOKE_QUERY),
          Set.of(PolicyAction.CHANGE), "none; then change on the branch written", 404),
      route("GET", G + "/branches", PolicyAction.READ, "none"),
      route("POST", G + "/branches", PolicyAction.BRANCH_CREATE, "from (default main) -> target: the new branch"),
      route("POST", G + "/branches/merge", PolicyAction.BRANCH_MERGE,
          "source -> target (default main); delete_branch also needs branch_delete on the source"),
      route("DELETE", G + "/branches/{branch}", PolicyAction.BRANCH_DELETE, "target: the branch deleted"),
      route("POST", G + "/branches/{branch}/revert", PolicyAction.CHANGE, "branch reverted (ours)"),
      route("GET", G + "/commits", PolicyAction.READ, "branch (default main)"),
      route("GET", G + "/commits/{commit_id}", PolicyAction.READ, "none"),
      route("GET", G + "/commits/{commit_id}/changes", PolicyAction.READ, "the commit's branch"),
      route("GET", G + "/changes", PolicyAction.READ, "branch (default main)"),
      route("POST", G + "/changes/baseline", PolicyAction.EXPORT, "branch (default main)"),
      route("GET", G + "/blob", PolicyAction.READ, "branch read (a snapshot's own branch; default main)"),
      route("HEAD", G + "/blob", PolicyAction.READ, "as GET"),
      route("GET", G + "/snapshot", PolicyAction.READ, "branch (default main); with commit, the commit's branch"),
      route("GET", G + "/lease", PolicyAction.READ, "none (ours)"),
      route("GET", G + "/access", PolicyAction.READ, "branch (default main) (ours: the console's actor view)"),
      route("GET", G + "/schema", PolicyAction.READ, "none"),
      route("POST", G + "/schema/apply", PolicyAction.SCHEMA_APPLY, "target main"),
      route("POST", G + "/indexes/ensure", PolicyAction.CHANGE, "branch indexed (ours)"),
      route("POST", G + "/export", PolicyAction.EXPORT, "branch (default main)"),
      new Route("GET", "/healthz", Optional.empty(), Set.of(), "public", 200));

  /** The route of {@code method} and OpenAPI path template {@code path}, if declared. */
  static Optional<Route> of(String method, String path) {
    return ROUTES.stream().filter(r -> r.method().equalsIgnoreCase(method) && r.path().equals(path)).findFirst();
  }
}
