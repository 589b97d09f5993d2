package dev.omnigraph.api;

import java.util.List;

/**
 * Storage contradicts an invariant the engine never breaks: a data table's live Lance HEAD is
 * behind the version the graph manifest pins (or the pinned table cannot be read at all). No tool
 * "fixes" this by guessing; the operation refused and changed nothing. Restore the dataset from a
 * backup or rebuild the graph via export/import.
 */
public final class InvariantViolation extends OmnigraphException {

  private final List<String> members;

  public InvariantViolation(String operation, List<String> members) {
    super(operation + " refuses: invariant violation, live HEAD behind the manifest pin on "
        + String.join("; ", members) + "; nothing was changed");
    this.members = List.copyOf(members);
  }

  /** One description per violating table pin: branch, table key, pinned version, live HEAD. */
  public List<String> members() {
    return members;
  }

  @Override
  public String code() {
    return "internal";
  }
}
