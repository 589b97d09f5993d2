package dev.omnigraph.server;

import dev.omnigraph.api.policy.PolicyAction;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The server policy every {@code @QuarkusTest} runs under, generated from {@link RouteActions}: the
 * tokens {@code alice} and {@code bob} may do everything; for each route, actor {@code a-<actions>}
 * holds exactly what the route needs and actor {@code not-<action>} everything but its action
 * ({@code RouteAuthorizationTest} tries each route as both). Each actor's token is its name plus
 * {@code -token}.
 */
final class RoutePolicy {

  private RoutePolicy() {}

  static String allowed(RouteActions.Route r) {
    Set<PolicyAction> all = EnumSet.noneOf(PolicyAction.class);
    r.action().ifPresent(all::add);
    all.addAll(r.with());
    return "a-" + all.stream().map(PolicyAction::wireName).collect(Collectors.joining("-"));
  }

  static String denied(RouteActions.Route r) {
    return "not-" + r.action().orElseThrow().wireName();
  }

  static String token(String actor) {
    return actor + "-token";
  }

  /** Actor → the actions it holds. */
  static Map<String, Set<PolicyAction>> actors() {
    Map<String, Set<PolicyAction>> out = new LinkedHashMap<>();
    out.put("alice", EnumSet.allOf(PolicyAction.class));
    out.put("bob", EnumSet.allOf(PolicyAction.class));
    for (RouteActions.Route r : RouteActions.ROUTES) {
      if (r.action().isEmpty()) {
        continue;
      }
      Set<PolicyAction> a = EnumSet.of(r.action().get());
      a.addAll(r.with());
      out.put(allowed(r), a);
      Set<PolicyAction> rest = EnumSet.allOf(PolicyAction.class);
      rest.remove(r.action().get());
      out.put(denied(r), rest);
    }
    return out;
  }

  /** The policy YAML: one group per actor, a per-graph rule and a graph_list rule as it holds them. */
  static String yaml() {
    StringBuilder groups = new StringBuilder();
    List<String> rules = new ArrayList<>();
    actors().forEach((actor, actions) -> {
      groups.append("  g-").append(actor).append(": [").append(actor).append("]\n");
      Set<String> graph = actions.stream().filter(a -> !a.serverScoped()).map(PolicyAction::wireName)
          .collect(Collectors.toCollection(TreeSet::new));
      if (!graph.isEmpty()) {
        rules.add("  - id: " + actor + "\n    allow:\n      actors: { group: g-" + actor + " }\n      actions: ["
            + String.join(", ", graph) + "]\n");
      }
      if (actions.contains(PolicyAction.GRAPH_LIST)) {
        rules.add("  - id: " + actor + "-list\n    allow:\n      actors: { group: g-" + actor
            + " }\n      actions: [graph_list]\n");
      }
    });
    return "version: 1\ngroups:\n" + groups + "rules:\n" + String.join("", rules);
  }
}
