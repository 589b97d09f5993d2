package dev.omnigraph.policy;

import java.util.List;

/**
 * The reference's e2e policy cases as one table that the HTTP acceptance ({@code AuthorizationE2ETest})
 * and the local CLI ({@code PolicyCliTest}) both run, in order, on a graph with {@code main} and
 * {@code feature}: the same decisions on both surfaces.
 */
public final class E2eCases {

  private E2eCases() {}

  /** What a case does. */
  public enum Op {
    /** A mutation on {@code main}. */
    MUTATE_MAIN,
    /** A mutation on {@code feature}. */
    MUTATE_FEATURE,
    /** A merge of {@code feature} into {@code main}. */
    MERGE_INTO_MAIN
  }

  public record Case(String actor, Op op, boolean allowed) {}

  /** The reference's e2e policy (its CLI test support's POLICY_YAML). */
  public static final String POLICY = """
      version: 1
      groups:
        team: [act-andrew, act-bruno]
        admins: [act-andrew]
      protected_branches: [main]
      rules:
        - id: team-read
          allow:
            actors: { group: team }
            actions: [read]
            branch_scope: any
        - id: team-write
          allow:
            actors: { group: team }
            actions: [change]
            branch_scope: unprotected
        - id: admins-promote
          allow:
            actors: { group: admins }
            actions: [branch_merge]
            target_branch_scope: protected
      """;

  public static final List<Case> CASES = List.of(
      new Case("act-bruno", Op.MUTATE_MAIN, false),
      new Case("act-bruno", Op.MUTATE_FEATURE, true),
      new Case("act-bruno", Op.MERGE_INTO_MAIN, false),
      new Case("act-andrew", Op.MERGE_INTO_MAIN, true));
}
