package dev.omnigraph.api;


/**
 * A table's live Lance HEAD differs from its manifest pin and no sidecar covers it: something wrote
 * the table outside a published write. Nothing is written; {@code omnigraph repair} explains and
 * resolves it.
 */
public final class UncoveredDrift extends Conflict {

  private final String tableKey;

  public UncoveredDrift(String tableKey, String detail) {
    super("uncovered drift on " + tableKey + ": " + detail + "; run omnigraph repair");
    this.tableKey = tableKey;
  }

  public String tableKey() {
    return tableKey;
  }
}
