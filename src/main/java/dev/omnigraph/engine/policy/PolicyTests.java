package dev.omnigraph.engine.policy;

import dev.omnigraph.api.policy.PolicyRefused;
import dev.omnigraph.api.policy.PolicyDecision;
import dev.omnigraph.api.policy.PolicyAction;
import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The reference's declarative policy test file: {@code version: 1} and {@code cases} of
 * {@code {id, actor, action, branch?, target_branch?, expect: allow|deny}}, run against a policy
 * ({@code omnigraph policy test --tests F.yaml}); beyond the reference a case may name the node and
 * edge {@code types: [..]} the request touches and the stored {@code query} it invokes.
 */
public record PolicyTests(List<Case> cases) {

  private static final Set<String> KEYS = new java.util.LinkedHashSet<>(List.of("version", "cases"));
  private static final Set<String> CASE_KEYS = Set.of("id", "actor", "action", "branch", "target_branch", "expect",
      "types", "query");

  /** One case and the line it starts on. */
  public record Case(String id, int line, String actor, PolicyAction action, Optional<String> branch,
      Optional<String> targetBranch, List<String> types, Optional<String> query, boolean expectAllowed) {}

  /** A case's outcome: the decision it got. */
  public record Result(Case testCase, PolicyDecision decision) {
    public boolean passed() {
      return decision.allowed() == testCase.expectAllowed();
    }
  }

  /** @throws PolicyRefused when the file cannot be read as written */
  public static PolicyTests load(Path file) {
    return parse(PolicyYaml.readFile(file), file.toString());
  }

  /** @throws PolicyRefused when the document cannot be read as written */
  public static PolicyTests parse(String source, String origin) {
    PolicyYaml.Document doc = PolicyYaml.read(source, origin, KEYS);
    JsonNode version = doc.values().get("version");
    if (version == null || !version.isIntegralNumber() || version.asInt() != 1) {
      throw new PolicyRefused(origin, doc.lines().getOrDefault("version", 0), Optional.empty(),
          "policy test version must be 1");
    }
    List<Case> cases = new ArrayList<>();
    Set<String> ids = new HashSet<>();
    for (PolicyYaml.Item item : doc.lists().getOrDefault("cases", List.of())) {
      JsonNode n = item.node();
      int line = item.line();
      String id = text(n, "id").orElseThrow(() -> new PolicyRefused(origin, line, Optional.empty(),
          "every case needs a non-blank id"));
      Optional<String> caseId = Optional.of(id);
      for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
        String k = it.next();
        if (!CASE_KEYS.contains(k)) {
          throw new PolicyRefused(origin, line, caseId, "unknown key '" + k + "'");
        }
      }
      if (!ids.add(id)) {
        throw new PolicyRefused(origin, line, caseId, "duplicate case id");
      }
      String actor = text(n, "actor").orElseThrow(() -> new PolicyRefused(origin, line, caseId,
          "needs a non-blank actor"));
      String actionName = text(n, "action").orElse("");
      PolicyAction action = PolicyAction.parse(actionName).orElseThrow(() -> new PolicyRefused(origin, line, caseId,
          "unknown action '" + actionName + "' (actions: " + PolicyAction.spellings() + ")"));
      String expect = text(n, "expect").orElse("");
      if (!expect.equals("allow") && !expect.equals("deny")) {
        throw new PolicyRefused(origin, line, caseId, "expect must be allow or deny");
      }
      JsonNode typesNode = n.get("types");
      List<String> types = new ArrayList<>();
      if (typesNode != null && !typesNode.isNull()) {
        if (!typesNode.isArray()) {
          throw new PolicyRefused(origin, line, caseId, "types must be a list");
        }
        typesNode.forEach(t -> types.add(t.asText()));
      }
      cases.add(new Case(id, line, actor, action, text(n, "branch"), text(n, "target_branch"), List.copyOf(types),
          text(n, "query"), expect.equals("allow")));
    }
    return new PolicyTests(List.copyOf(cases));
  }

  private static Optional<String> text(JsonNode n, String key) {
    JsonNode v = n.get(key);
    return v == null || !v.isTextual() || v.asText().isBlank() ? Optional.empty() : Optional.of(v.asText());
  }

  /** Every case's decision under {@code policy}, in file order. */
  public List<Result> run(Policy policy) {
    return cases.stream().map(c -> new Result(c, policy.decide(c.actor(), c.action(), c.branch(), c.targetBranch(),
        c.types(), c.query())))
        .toList();
  }
}
