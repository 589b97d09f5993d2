package dev.omnigraph.api;

import java.util.List;

/**
 * Schema apply refused because the graph has branches other than main (the reference's rule:
 * a schema applies to a graph with only main, so no branch ever holds data of another schema).
 * Merge or delete the branches, apply, then branch again. Nothing was written; answered 409.
 */
public final class SchemaApplyBlocked extends Conflict {

  private final List<String> branches;

  public SchemaApplyBlocked(List<String> branches) {
    super("schema apply requires a graph with only main; found non-main branches: " + String.join(", ", branches)
        + " (merge or delete them first)");
    this.branches = List.copyOf(branches);
  }

  /** The branches that block the apply, sorted. */
  public List<String> branches() {
    return branches;
  }
}
