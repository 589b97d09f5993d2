package dev.omnigraph.write;

import dev.omnigraph.api.TableKey;
import dev.omnigraph.api.InvalidRequest;

/**
 * A row breaks a declared constraint ({@code @range}, {@code @check}, {@code @unique},
 * {@code @card}). Raised while preparing, before any sidecar or effect: nothing was written.
 */
public final class ConstraintViolation extends InvalidRequest {

  private final TableKey tableKey;
  private final String constraint;
  private final String entityId;

  public ConstraintViolation(TableKey tableKey, String constraint, String entityId, String detail) {
    super(tableKey + " " + constraint + " violated by " + entityId + ": " + detail);
    this.tableKey = tableKey;
    this.constraint = constraint;
    this.entityId = entityId;
  }

  public TableKey tableKey() {
    return tableKey;
  }

  /** The constraint as written, e.g. {@code @range(age, 0..150)}. */
  public String constraint() {
    return constraint;
  }

  public String entityId() {
    return entityId;
  }
}
