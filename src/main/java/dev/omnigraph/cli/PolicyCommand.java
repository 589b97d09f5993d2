package dev.omnigraph.cli;

import dev.omnigraph.engine.policy.Policy;
import dev.omnigraph.api.policy.PolicyAction;
import dev.omnigraph.api.policy.PolicyDecision;
import dev.omnigraph.engine.policy.PolicyTests;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code omnigraph policy validate|test|explain}: the authorization policy tooling
 * (docs/authorization.md). Reads only the files named; opens no graph. A file that does not parse or
 * breaks the format exits 1 naming its line and rule ({@link dev.omnigraph.api.policy.PolicyRefused}).
 */
@Command(name = "policy", mixinStandardHelpOptions = true, footerHeading = RootCommand.EXAMPLE,
    footer = "  omnigraph policy validate policy.yaml",
    description = "Check an authorization policy file, run its test cases, explain a decision.",
    subcommands = {PolicyCommand.Validate.class, PolicyCommand.Test.class, PolicyCommand.Explain.class})
public class PolicyCommand {

  /** {@code policy validate FILE}: parses and validates; prints the groups, actors and rules counted. */
  @Command(name = "validate", mixinStandardHelpOptions = true, footerHeading = RootCommand.EXAMPLE,
      footer = "  omnigraph policy validate policy.yaml",
      description = "Parse and validate a policy file; exit 1 naming the line and rule of the first error.")
  public static class Validate implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "FILE", description = "The policy YAML.")
    Path file;

    @Override
    public Integer call() {
      Policy p = Policy.load(file);
      System.out.println("policy " + file + ": valid; " + p.groups().size() + " groups, " + p.actors().size()
          + " actors, " + p.rules().size() + " rules, protected branches " + p.protectedBranches());
      return ExitCodes.OK;
    }
  }

  /** {@code policy test --policy FILE --tests CASES}: the reference's declarative cases. */
  @Command(name = "test", mixinStandardHelpOptions = true, footerHeading = RootCommand.EXAMPLE,
      footer = "  omnigraph policy test --policy policy.yaml --tests cases.yaml",
      description = "Run declarative cases (actor, action, branch, target_branch, expect) against a policy; exit 1"
          + " on any mismatch.")
  public static class Test implements Callable<Integer> {
    @Option(names = "--policy", paramLabel = "FILE", required = true, description = "The policy YAML.")
    Path policy;

    @Option(names = "--tests", paramLabel = "FILE", required = true, description = "The cases YAML.")
    Path tests;

    @Override
    public Integer call() {
      Policy p = Policy.load(policy);
      List<PolicyTests.Result> results = PolicyTests.load(tests).run(p);
      long failed = results.stream().filter(r -> !r.passed()).count();
      for (PolicyTests.Result r : results) {
        System.out.println((r.passed() ? "ok   " : "FAIL ") + r.testCase().id() + ": expected "
            + (r.testCase().expectAllowed() ? "allow" : "deny") + ", got " + (r.decision().allowed() ? "allow" : "deny")
            + r.decision().ruleId().map(id -> " (rule " + id + ")").orElse(""));
      }
      System.out.println(results.size() - failed + " passed, " + failed + " failed");
      return failed == 0 ? ExitCodes.OK : ExitCodes.ERROR;
    }
  }

  /** {@code policy explain}: one decision and the rule that made it. */
  @Command(name = "explain", mixinStandardHelpOptions = true, footerHeading = RootCommand.EXAMPLE,
      footer = "  omnigraph policy explain --policy policy.yaml --actor agent-w1 --action change --branch main",
      description = "Show the decision for an actor, action and branch, and the rule that allowed it.")
  public static class Explain implements Callable<Integer> {
    @Option(names = "--policy", paramLabel = "FILE", required = true, description = "The policy YAML.")
    Path policy;

    @Option(names = "--actor", paramLabel = "ID", required = true, description = "The actor (a token's actor id).")
    String actor;

    @Option(names = "--action", paramLabel = "ACTION", required = true, description = "read, export, change,"
        + " schema_apply, branch_create, branch_delete, branch_merge, invoke_query, admin or graph_list.")
    String action;

    @Option(names = "--branch", paramLabel = "B", description = "The branch acted on (a merge's source).")
    String branch;

    @Option(names = "--target-branch", paramLabel = "B", description = "The branch changed, created or deleted.")
    String targetBranch;

    @Option(names = "--types", paramLabel = "T,..", split = ",", description = "Node and edge types the request"
        + " touches (read, export, change), checked against the rules' types.")
    List<String> types = List.of();

    @Option(names = "--query", paramLabel = "NAME", description = "The stored query invoked (invoke_query),"
        + " checked against the rules' queries.")
    String query;

    @Override
    public Integer call() {
      Policy p = Policy.load(policy);
      PolicyAction a = PolicyAction.parse(action).orElseThrow(() -> new dev.omnigraph.api.InvalidRequest(
          "unknown action '" + action + "' (actions: " + PolicyAction.spellings() + ")"));
      PolicyDecision d = p.decide(actor, a, Optional.ofNullable(branch), Optional.ofNullable(targetBranch), types,
          Optional.ofNullable(query));
      // An allowance names every rule it rests on: two narrow types lists may compose.
      System.out.println((d.allowed() ? "allow" : "deny") + (d.rules().isEmpty()
          ? (d.allowed() ? "" : " (no rule allows it)")
          : " (" + (d.rules().size() == 1 ? "rule " : "rules ") + String.join(", ", d.rules()) + ")")
          + ": " + d.message());
      return ExitCodes.OK;
    }
  }
}
