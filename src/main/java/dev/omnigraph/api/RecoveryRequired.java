package dev.omnigraph.api;

/**
 * The unknown outcome: an effect may have landed, or an unresolved recovery intent overlaps this
 * write. The sidecar named by {@link #operationId()} is left in place; retry only after recovery
 * has resolved it.
 */
public final class RecoveryRequired extends OmnigraphException {

  private final String operationId;

  public RecoveryRequired(String operationId, String message) {
    super(message + " (recovery required for operation " + operationId + ")");
    this.operationId = operationId;
  }

  public RecoveryRequired(String operationId, String message, Throwable cause) {
    super(message + " (recovery required for operation " + operationId + ")", cause);
    this.operationId = operationId;
  }

  public String operationId() {
    return operationId;
  }

  @Override
  public String code() {
    return null; // as the reference: no ErrorCode, the detail field is the discriminator
  }
}
