package dev.omnigraph.manifest;

/**
 * A dataset's identity: the type's stable table id (kept for the life of the type name) and its
 * incarnation (changed when the table is dropped and re-created or rebuilt). Recovery never infers
 * ownership from a mutable alias or path, only from this pair.
 */
public record TableIdentity(long stableTableId, long incarnationId) implements Comparable<TableIdentity> {

  public TableIdentity {
    if (stableTableId <= 0 || incarnationId <= 0) {
      throw new IllegalArgumentException("table identity parts must be positive: "
          + stableTableId + "/" + incarnationId);
    }
  }

  /** {@code {stable:016x}-{incarnation:016x}}, the id used in object ids and dataset paths. */
  public String hex() {
    return String.format("%016x-%016x", stableTableId, incarnationId);
  }

  /** The dataset key under the graph root: {@code nodes/<hex>} or {@code edges/<hex>}. */
  public String path(boolean edge) {
    return (edge ? "edges/" : "nodes/") + hex();
  }

  @Override
  public int compareTo(TableIdentity o) {
    int c = Long.compare(stableTableId, o.stableTableId);
    return c != 0 ? c : Long.compare(incarnationId, o.incarnationId);
  }

  @Override
  public String toString() {
    return hex();
  }
}
