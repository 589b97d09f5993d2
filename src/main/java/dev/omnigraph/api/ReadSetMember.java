package dev.omnigraph.api;

import java.util.Objects;

/**
 * What moved in a {@link ReadSetChanged}: one part of the authority a write was prepared against.
 * Its {@link #wire()} form is what the HTTP body's {@code read_set_conflict.member} and the CLI
 * show (and what older clients match on), so each kind renders to exactly the text it always had.
 */
public sealed interface ReadSetMember {

  /** The text on the wire, e.g. {@code graph_head:main}. */
  String wire();

  /** The branch's graph head (its latest commit): {@code graph_head:<branch>}. */
  record GraphHead(String branch) implements ReadSetMember {
    public GraphHead {
      Objects.requireNonNull(branch, "branch");
    }

    @Override
    public String wire() {
      return "graph_head:" + branch;
    }
  }

  /** The branch's native incarnation (deleted and recreated, or gone): {@code branch_identity:<branch>}. */
  record BranchIdentity(String branch) implements ReadSetMember {
    public BranchIdentity {
      Objects.requireNonNull(branch, "branch");
    }

    @Override
    public String wire() {
      return "branch_identity:" + branch;
    }
  }

  /** The accepted schema: {@code schema}. */
  record Schema() implements ReadSetMember {
    @Override
    public String wire() {
      return "schema";
    }
  }

  /** One table's pinned version: {@code table:<table key>}. */
  record Table(String tableKey) implements ReadSetMember {
    public Table {
      Objects.requireNonNull(tableKey, "tableKey");
    }

    @Override
    public String wire() {
      return "table:" + tableKey;
    }
  }

  /** A member a server named that this version does not know (read from the wire, kept verbatim). */
  record Unrecognized(String wire) implements ReadSetMember {
    public Unrecognized {
      Objects.requireNonNull(wire, "wire");
    }
  }

  /** The member a wire text names; the inverse of {@link #wire()}. */
  static ReadSetMember parse(String wire) {
    if (wire.equals("schema")) {
      return new Schema();
    }
    int colon = wire.indexOf(':');
    String rest = colon < 0 ? "" : wire.substring(colon + 1);
    switch (colon < 0 ? wire : wire.substring(0, colon)) {
      case "graph_head":
        return new GraphHead(rest);
      case "branch_identity":
        return new BranchIdentity(rest);
      case "table":
        return new Table(rest);
      default:
        return new Unrecognized(wire);
    }
  }
}
