package dev.omnigraph.api;

import java.util.List;

/**
 * A maintenance operation ({@code repair}, {@code cleanup}) refused to start because recovery
 * sidecars are pending: they belong to automatic recovery, which may still need the very Lance
 * versions and transactions that maintenance would restore over or garbage-collect. Nothing was
 * changed. Settle them first with {@code omnigraph recover} (or by reopening the graph read-write),
 * then retry.
 */
public final class RecoveryPending extends Conflict {

  private final String operation;
  private final List<String> pendingSidecars;

  public RecoveryPending(String operation, List<String> pendingSidecars) {
    super(operation + " refuses while recovery sidecars are pending (" + String.join(", ", pendingSidecars)
        + "); run omnigraph recover or reopen the graph read-write, then retry");
    this.operation = operation;
    this.pendingSidecars = List.copyOf(pendingSidecars);
  }

  /** The refused operation: {@code repair} or {@code cleanup}. */
  public String operation() {
    return operation;
  }

  /** The pending sidecar keys ({@code __recovery/<operation id>.json}), oldest first. */
  public List<String> pendingSidecars() {
    return pendingSidecars;
  }
}
