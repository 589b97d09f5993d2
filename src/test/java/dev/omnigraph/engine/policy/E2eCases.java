package dev.omnigraph.engine.policy;

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

  /** What a per-type case does (beyond the reference), on a graph with Person Ada and Bob and Ada knows Bob. */
  public enum ScopedOp {
    /** Read query {@code people}: Person only. */
    QUERY_PERSON,
    /** Read query {@code friends}: traverses Knows. */
    QUERY_KNOWS,
    /** A load whose line 1 is a Person and line 2 a Knows (mode merge, on main). */
    LOAD_WITH_KNOWS,
    /** A load of one Person line (mode merge, on main). */
    LOAD_PERSON
  }

  public record ScopedCase(String actor, ScopedOp op, boolean allowed) {}

  /**
   * Beyond the reference: a fleet where {@code agent-p} may read and export only Person and invoke
   * only the stored queries {@code people} and {@code friends}, {@code agent-w} may change only Person,
   * and {@code act-bruno} audits (reads everything).
   */
  public static final String SCOPED_POLICY = """
      version: 1
      groups:
        readers: [agent-p]
        writers: [agent-w]
        auditors: [act-bruno]
      protected_branches: [main]
      rules:
        - id: auditors-read
          allow: { actors: { group: auditors }, actions: [read], branch_scope: any }
        - id: readers-person
          allow: { actors: { group: readers }, actions: [read, export], branch_scope: any, types: [Person] }
        - id: readers-invoke
          allow: { actors: { group: readers }, actions: [invoke_query], queries: [people, friends] }
        - id: writers-person
          allow: { actors: { group: writers }, actions: [read, change], branch_scope: any, types: [Person] }
      """;

  /** The read queries of {@link ScopedOp}, also served as stored queries (with {@code add_person}). */
  public static final String SCOPED_QUERIES = """
      query people() { match { $p: Person } return { $p.name } order { $p.name } }
      query friends() { match { $p: Person  $p knows $f } return { $f.name } order { $f.name } }
      query add_person($name: String) { insert Person { name: $name } }
      """;

  /** The load of {@link ScopedOp#LOAD_WITH_KNOWS}: refused at line 2 for a Person-only writer. */
  public static final String LOAD_WITH_KNOWS = """
      {"type":"Person","data":{"name":"Cy"}}
      {"edge":"Knows","from":"Cy","to":"Ada"}
      """;

  /** The exact refusal of line 2 of {@link #LOAD_WITH_KNOWS} for {@code agent-w}. */
  public static final String LOAD_REFUSAL = "line 2: policy denied action 'change' on branch 'main' for actor"
      + " 'agent-w': type 'Knows' is outside its scope";

  public static final List<ScopedCase> SCOPED_CASES = List.of(
      new ScopedCase("agent-p", ScopedOp.QUERY_PERSON, true),
      new ScopedCase("agent-p", ScopedOp.QUERY_KNOWS, false),
      new ScopedCase("act-bruno", ScopedOp.QUERY_KNOWS, true),
      new ScopedCase("agent-w", ScopedOp.LOAD_WITH_KNOWS, false),
      new ScopedCase("agent-p", ScopedOp.LOAD_PERSON, false),
      new ScopedCase("agent-w", ScopedOp.LOAD_PERSON, true));
}
