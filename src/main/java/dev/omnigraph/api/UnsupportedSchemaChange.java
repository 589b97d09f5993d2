package dev.omnigraph.api;

import java.util.List;

/**
 * Schema apply refused a plan holding unsupported changes (narrowing an enum, changing a type or a
 * key, a required property without a default, …). Nothing was written. Answered 400 with the first
 * change's entity and reason in the message; {@link #changes()} lists them all.
 */
public final class UnsupportedSchemaChange extends InvalidRequest {

  private final List<SchemaStep.UnsupportedChange> changes;

  public UnsupportedSchemaChange(List<SchemaStep.UnsupportedChange> changes) {
    super(message(changes));
    this.changes = List.copyOf(changes);
  }

  private static String message(List<SchemaStep.UnsupportedChange> changes) {
    if (changes.isEmpty()) {
      throw new IllegalArgumentException("an unsupported plan names at least one change");
    }
    SchemaStep.UnsupportedChange first = changes.get(0);
    String more = changes.size() == 1 ? "" : " (and " + (changes.size() - 1) + " more unsupported change"
        + (changes.size() == 2 ? "" : "s") + ")";
    return "schema apply refused, nothing was changed: unsupported change on " + first.entity() + ": "
        + first.reason() + more;
  }

  /** Every unsupported change of the plan, in plan order. */
  public List<SchemaStep.UnsupportedChange> changes() {
    return changes;
  }
}
