package dev.omnigraph.engine.policy;

import dev.omnigraph.api.policy.NameScope;
import dev.omnigraph.api.policy.PolicyRefused;
import dev.omnigraph.api.policy.PolicyDecision;
import dev.omnigraph.api.policy.PolicyAction;
import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * An authorization policy in the reference's YAML format ({@code version: 1}, {@code groups},
 * {@code protected_branches}, {@code rules} of {@code allow}), validated when it is read and then
 * immutable. Semantics are the reference's: a request is allowed when some rule selects the actor
 * (by group or id), lists the action, and its scope covers the request's branch
 * ({@code branch_scope}) or target branch ({@code target_branch_scope}); anything else is denied,
 * and an actor the policy does not name is always denied. There are no deny rules.
 */
public final class Policy {

  private static final Set<String> KEYS = new java.util.LinkedHashSet<>(
      List.of("version", "groups", "protected_branches", "rules"));
  private static final Set<String> RULE_KEYS = Set.of("id", "allow");
  private static final Set<String> ALLOW_KEYS = Set.of("actors", "actions", "branch_scope", "target_branch_scope",
      "types", "queries");
  /** The actions a rule's {@code types} may limit: those that read or write rows of a type. */
  private static final Set<PolicyAction> TYPED = EnumSet.of(PolicyAction.READ, PolicyAction.EXPORT, PolicyAction.CHANGE);

  private final String origin;
  private final Map<String, Set<String>> groups;
  private final Set<String> protectedBranches;
  private final List<PolicyRule> rules;
  /** Actor → the groups naming it; an actor named only by an {@code id} selector maps to no group. */
  private final Map<String, Set<String>> actors;

  private Policy(String origin, Map<String, Set<String>> groups, Set<String> protectedBranches,
      List<PolicyRule> rules) {
    this.origin = origin;
    this.groups = groups;
    this.protectedBranches = protectedBranches;
    this.rules = rules;
    Map<String, Set<String>> byActor = new TreeMap<>();
    groups.forEach((g, members) -> members.forEach(a -> byActor.computeIfAbsent(a, k -> new TreeSet<>()).add(g)));
    rules.forEach(r -> r.actorId().ifPresent(a -> byActor.computeIfAbsent(a, k -> new TreeSet<>())));
    this.actors = Collections.unmodifiableMap(byActor);
  }

  /**
   * Reads and validates the policy file at {@code file}.
   *
   * @throws PolicyRefused naming the file, line and rule when it cannot be used as written
   */
  public static Policy load(Path file) {
    return parse(PolicyYaml.readFile(file), file.toString());
  }

  /**
   * Parses and validates a policy document; {@code origin} names it in messages.
   *
   * @throws PolicyRefused naming the line and rule when it cannot be used as written
   */
  public static Policy parse(String source, String origin) {
    PolicyYaml.Document doc = PolicyYaml.read(source, origin, KEYS);
    JsonNode version = doc.values().get("version");
    if (version == null || !version.isIntegralNumber() || version.asInt() != 1) {
      throw new PolicyRefused(origin, doc.lines().getOrDefault("version", 0), Optional.empty(),
          "version must be 1");
    }
    Map<String, Set<String>> groups = groups(doc, origin);
    Set<String> protectedBranches = new TreeSet<>(
        strings(doc.values().get("protected_branches"), origin, doc.lines().getOrDefault("protected_branches", 0),
            Optional.empty(), "protected_branches", true));
    List<PolicyRule> rules = new ArrayList<>();
    Set<String> ids = new HashSet<>();
    for (PolicyYaml.Item item : doc.lists().getOrDefault("rules", List.of())) {
      PolicyRule rule = rule(item, groups, origin);
      if (!ids.add(rule.id())) {
        throw new PolicyRefused(origin, item.line(), Optional.of(rule.id()), "duplicate rule id");
      }
      rules.add(rule);
    }
    if (doc.values().containsKey("rules") && !doc.lists().containsKey("rules")
        && !doc.values().get("rules").isNull()) {
      throw new PolicyRefused(origin, doc.lines().get("rules"), Optional.empty(), "rules must be a list");
    }
    return new Policy(origin, Collections.unmodifiableMap(groups), Collections.unmodifiableSet(protectedBranches),
        List.copyOf(rules));
  }

  private static Map<String, Set<String>> groups(PolicyYaml.Document doc, String origin) {
    JsonNode node = doc.values().get("groups");
    int line = doc.lines().getOrDefault("groups", 0);
    Map<String, Set<String>> groups = new TreeMap<>();
    if (node == null || node.isNull()) {
      return groups;
    }
    if (!node.isObject()) {
      throw new PolicyRefused(origin, line, Optional.empty(), "groups must map group names to lists of actor ids");
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      if (e.getKey().isBlank()) {
        throw new PolicyRefused(origin, line, Optional.empty(), "group names must not be blank");
      }
      List<String> members = strings(e.getValue(), origin, line, Optional.empty(), "group '" + e.getKey() + "'", false);
      if (members.isEmpty()) {
        throw new PolicyRefused(origin, line, Optional.empty(), "group '" + e.getKey() + "' must not be empty");
      }
      groups.put(e.getKey(), Collections.unmodifiableSet(new TreeSet<>(members)));
    }
    return groups;
  }

  private static PolicyRule rule(PolicyYaml.Item item, Map<String, Set<String>> groups, String origin) {
    JsonNode n = item.node();
    int line = item.line();
    if (!n.isObject()) {
      throw new PolicyRefused(origin, line, Optional.empty(), "a rule is a mapping with id and allow");
    }
    JsonNode idNode = n.get("id");
    if (idNode == null || !idNode.isTextual() || idNode.asText().isBlank()) {
      throw new PolicyRefused(origin, line, Optional.empty(), "every rule needs a non-blank id");
    }
    Optional<String> id = Optional.of(idNode.asText());
    unknownKeys(n, RULE_KEYS, origin, line, id);
    JsonNode allow = n.get("allow");
    if (allow == null || !allow.isObject()) {
      throw new PolicyRefused(origin, line, id, "needs an allow mapping (actors, actions, branch_scope | "
          + "target_branch_scope)");
    }
    unknownKeys(allow, ALLOW_KEYS, origin, line, id);
    JsonNode actors = allow.get("actors");
    if (actors == null || !actors.isObject() || actors.size() != 1
        || !(actors.has("group") || actors.has("id")) || !actors.elements().next().isTextual()
        || actors.elements().next().asText().isBlank()) {
      throw new PolicyRefused(origin, line, id, "actors must be { group: NAME } or { id: ACTOR }");
    }
    Optional<String> group = Optional.ofNullable(actors.get("group")).map(JsonNode::asText);
    Optional<String> actorId = Optional.ofNullable(actors.get("id")).map(JsonNode::asText);
    if (group.isPresent() && !groups.containsKey(group.get())) {
      throw new PolicyRefused(origin, line, id, "references unknown group '" + group.get() + "'");
    }
    List<String> names = strings(allow.get("actions"), origin, line, id, "actions", false);
    if (names.isEmpty()) {
      throw new PolicyRefused(origin, line, id, "must list at least one action");
    }
    EnumSet<PolicyAction> actions = EnumSet.noneOf(PolicyAction.class);
    for (String name : names) {
      actions.add(PolicyAction.parse(name).orElseThrow(() -> new PolicyRefused(origin, line, id,
          "unknown action '" + name + "' (actions: " + PolicyAction.spellings() + ")")));
    }
    Optional<BranchScope> branchScope = scope(allow, "branch_scope", origin, line, id);
    Optional<BranchScope> targetScope = scope(allow, "target_branch_scope", origin, line, id);
    if (branchScope.isPresent() && targetScope.isPresent()) {
      throw new PolicyRefused(origin, line, id, "may use branch_scope or target_branch_scope, not both");
    }
    boolean server = actions.stream().anyMatch(PolicyAction::serverScoped);
    if (server && actions.stream().anyMatch(a -> !a.serverScoped())) {
      throw new PolicyRefused(origin, line, id, "mixes server-scoped actions (graph_list) with per-graph actions;"
          + " split it into two rules");
    }
    for (PolicyAction a : actions) {
      if (branchScope.isPresent() && a.scope() != PolicyAction.Scope.BRANCH) {
        throw new PolicyRefused(origin, line, id, "uses branch_scope with action '" + a + "', which "
            + takes(a));
      }
      if (targetScope.isPresent() && a.scope() != PolicyAction.Scope.TARGET_BRANCH) {
        throw new PolicyRefused(origin, line, id, "uses target_branch_scope with action '" + a + "', which "
            + takes(a));
      }
    }
    // Beyond the reference: the names a rule is limited to. Each list belongs to the actions it can
    // narrow; on any other action it would read as a limit that is never applied, so it is refused.
    NameScope types = names(allow, "types", origin, line, id);
    NameScope queries = names(allow, "queries", origin, line, id);
    for (PolicyAction a : actions) {
      if (!types.all() && !TYPED.contains(a)) {
        throw new PolicyRefused(origin, line, id, "uses types with action '" + a + "'; types limit only read,"
            + " export and change");
      }
      if (!queries.all() && a != PolicyAction.INVOKE_QUERY) {
        throw new PolicyRefused(origin, line, id, "uses queries with action '" + a + "'; queries limit only"
            + " invoke_query");
      }
    }
    return new PolicyRule(id.get(), line, group, actorId, Collections.unmodifiableSet(actions), branchScope,
        targetScope, types, queries);
  }

  /** A rule's {@code types} / {@code queries} list: absent is every name; present, at least one. */
  private static NameScope names(JsonNode allow, String key, String origin, int line, Optional<String> id) {
    if (!allow.has(key)) {
      return NameScope.ALL;
    }
    List<String> names = strings(allow.get(key), origin, line, id, key, false);
    if (names.isEmpty()) {
      // An empty list would grant the action for nothing; leaving the key out grants every name.
      throw new PolicyRefused(origin, line, id, key + " must list at least one name (leave it out for all)");
    }
    return NameScope.of(new TreeSet<>(names));
  }

  private static String takes(PolicyAction a) {
    return switch (a.scope()) {
      case BRANCH -> "takes branch_scope";
      case TARGET_BRANCH -> "takes target_branch_scope";
      case NONE -> "takes no branch scope";
    };
  }

  private static Optional<BranchScope> scope(JsonNode allow, String key, String origin, int line, Optional<String> id) {
    JsonNode v = allow.get(key);
    if (v == null || v.isNull()) {
      return Optional.empty();
    }
    return Optional.of(BranchScope.parse(v.isTextual() ? v.asText() : "").orElseThrow(() ->
        new PolicyRefused(origin, line, id, key + " must be any, protected or unprotected")));
  }

  private static void unknownKeys(JsonNode n, Set<String> allowed, String origin, int line, Optional<String> id) {
    for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
      String k = it.next();
      if (!allowed.contains(k)) {
        throw new PolicyRefused(origin, line, id, "unknown key '" + k + "' (allowed: "
            + String.join(", ", new TreeSet<>(allowed)) + ")");
      }
    }
  }

  private static List<String> strings(JsonNode n, String origin, int line, Optional<String> id, String what,
      boolean nullIsEmpty) {
    if (n == null || n.isNull()) {
      if (nullIsEmpty) {
        return List.of();
      }
      throw new PolicyRefused(origin, line, id, what + " must be a list");
    }
    if (!n.isArray()) {
      throw new PolicyRefused(origin, line, id, what + " must be a list");
    }
    List<String> out = new ArrayList<>();
    for (JsonNode e : n) {
      if (!e.isTextual() || e.asText().isBlank()) {
        throw new PolicyRefused(origin, line, id, what + " must hold non-blank names");
      }
      out.add(e.asText());
    }
    return out;
  }

  /**
   * The decision for {@code actor} doing {@code action} on {@code branch} (the branch acted on; a
   * merge's source) and {@code targetBranch} (the branch changed, created or deleted). Allowed when a
   * rule grants it; the decision names the smallest such rule id. A rule limited to some types or
   * queries still grants here: what the call may touch is then {@link #typeScope} / {@link #queryScope}.
   */
  public PolicyDecision decide(String actor, PolicyAction action, Optional<String> branch,
      Optional<String> targetBranch) {
    return decide(actor, action, branch, targetBranch, List.of(), Optional.empty());
  }

  /**
   * As {@link #decide(String, PolicyAction, Optional, Optional)} for a request that names the node and
   * edge {@code types} it touches and the stored {@code query} it invokes (beyond the reference):
   * allowed when some granting rule covers the query and every type is covered by some granting rule
   * (the union of their lists, so two narrow rules compose). A denial names the first type (in the
   * order given) or the query outside the actor's scope; an allowance names the rules it rests on.
   */
  public PolicyDecision decide(String actor, PolicyAction action, Optional<String> branch,
      Optional<String> targetBranch, java.util.Collection<String> types, Optional<String> query) {
    Set<String> actorGroups = actors.get(actor);
    if (actorGroups == null) {
      return new PolicyDecision(false, Optional.empty(),
          "policy denied action '" + action + "' for unknown actor '" + actor + "'");
    }
    List<PolicyRule> granting = granting(actor, actorGroups, action, branch, targetBranch);
    String denied = denied(actor, action, branch, targetBranch);
    if (granting.isEmpty()) {
      return new PolicyDecision(false, Optional.empty(), denied);
    }
    Set<String> used = new TreeSet<>();
    if (query.isPresent()) {
      List<String> covering = covering(granting, PolicyRule::queries, query.get());
      if (covering.isEmpty()) {
        return new PolicyDecision(false, Optional.empty(), denied + ": query '" + query.get()
            + "' is outside its scope");
      }
      used.addAll(covering);
    }
    for (String type : types) {
      List<String> covering = covering(granting, PolicyRule::types, type);
      if (covering.isEmpty()) {
        return new PolicyDecision(false, Optional.empty(), outOfScope(denied, type));
      }
      used.addAll(covering);
    }
    if (used.isEmpty()) {
      // A plain request names the smallest granting rule, as the reference.
      granting.stream().map(PolicyRule::id).min(String::compareTo).ifPresent(used::add);
    }
    return new PolicyDecision(true, Optional.of(used.iterator().next()),
        "policy allowed action '" + action + "' for actor '" + actor + "'", List.copyOf(used));
  }

  /** A denial's message: the action, branches and actor, never the policy's contents. */
  static String denied(String actor, PolicyAction action, Optional<String> branch, Optional<String> targetBranch) {
    return "policy denied action '" + action + "'" + branch.map(b -> " on branch '" + b + "'").orElse("")
        + targetBranch.map(b -> " targeting branch '" + b + "'").orElse("") + " for actor '" + actor + "'";
  }

  /** The denial of a type outside the scope, after the message naming the action, branch and actor. */
  static String outOfScope(String denied, String type) {
    return denied + ": type '" + type + "' is outside its scope";
  }

  /**
   * The node and edge types {@code actor} may touch with {@code action} on {@code branch}: the union
   * of the {@code types} of the rules that grant it, every type when one of them lists none, none when
   * no rule grants it.
   */
  public NameScope typeScope(String actor, PolicyAction action, Optional<String> branch) {
    return union(grantingOrNone(actor, action, branch), PolicyRule::types);
  }

  /**
   * The types {@code actor} may touch with {@code action} on some branch (what a catalog that is not
   * bound to one branch may show: a stored query may be invoked on any branch).
   */
  public NameScope typeScopeOnAnyBranch(String actor, PolicyAction action) {
    Set<String> actorGroups = actors.get(actor);
    return union(actorGroups == null ? List.of() : rules.stream()
        .filter(r -> r.selects(actor, actorGroups) && r.actions().contains(action)).toList(), PolicyRule::types);
  }

  /** The stored queries {@code actor} may invoke ({@code invoke_query}, which takes no branch). */
  public NameScope queryScope(String actor) {
    return union(grantingOrNone(actor, PolicyAction.INVOKE_QUERY, Optional.empty()), PolicyRule::queries);
  }

  private List<PolicyRule> grantingOrNone(String actor, PolicyAction action, Optional<String> branch) {
    Set<String> actorGroups = actors.get(actor);
    return actorGroups == null ? List.of() : granting(actor, actorGroups, action, branch, Optional.empty());
  }

  private List<PolicyRule> granting(String actor, Set<String> actorGroups, PolicyAction action,
      Optional<String> branch, Optional<String> targetBranch) {
    return rules.stream().filter(r -> r.grants(actor, actorGroups, action, branch, targetBranch, protectedBranches))
        .toList();
  }

  private static List<String> covering(List<PolicyRule> rules, java.util.function.Function<PolicyRule, NameScope> dim,
      String name) {
    return rules.stream().filter(r -> dim.apply(r).covers(name)).map(PolicyRule::id).toList();
  }

  private static NameScope union(List<PolicyRule> rules, java.util.function.Function<PolicyRule, NameScope> dim) {
    Set<String> names = new TreeSet<>();
    for (PolicyRule r : rules) {
      NameScope s = dim.apply(r);
      if (s.all()) {
        return NameScope.ALL;
      }
      names.addAll(s.names().orElseThrow());
    }
    return NameScope.of(names);
  }

  /**
   * This policy, when it holds only per-graph rules (what a graph's own policy file may hold).
   *
   * @throws PolicyRefused naming the first server-scoped rule: it would never match there
   */
  public Policy requireGraphScoped() {
    for (PolicyRule r : rules) {
      if (r.actions().stream().anyMatch(PolicyAction::serverScoped)) {
        throw new PolicyRefused(origin, r.line(), Optional.of(r.id()), "uses server-scoped action graph_list in a"
            + " graph's policy file; move it to the server's (omnigraph.policy.file)");
      }
    }
    return this;
  }

  /** Where the policy came from (a path), for logs and messages. */
  public String origin() {
    return origin;
  }

  /** Every actor the policy names, sorted. */
  public Set<String> actors() {
    return actors.keySet();
  }

  public List<PolicyRule> rules() {
    return rules;
  }

  public Set<String> protectedBranches() {
    return protectedBranches;
  }

  /** The groups and their members, sorted. */
  public Map<String, Set<String>> groups() {
    return Collections.unmodifiableMap(new LinkedHashMap<>(groups));
  }
}
