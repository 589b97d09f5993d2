package dev.omnigraph.api;

import java.util.Optional;

/**
 * A well-formed entity-diff request this commit cannot satisfy (reference
 * {@code ChangeDiffRefusalOutput}, HTTP 409): the genesis commit has no parent to diff against, and a
 * commit whose parent/child pair crosses a schema change is refused rather than guessed.
 */
public final class ChangeDiffRefused extends OmnigraphException {

  /** Reference {@code ChangeDiffRefusalReason}. */
  public enum Reason {
    PARENTLESS_COMMIT, SCHEMA_BOUNDARY;

    public String wire() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  private final Reason reason;
  private final String commitId;
  private final Optional<String> typeName;

  public ChangeDiffRefused(Reason reason, String commitId, Optional<String> typeName, String message) {
    super(message);
    this.reason = reason;
    this.commitId = commitId;
    this.typeName = typeName;
  }

  public Reason reason() {
    return reason;
  }

  public String commitId() {
    return commitId;
  }

  /** The type at the schema boundary, when the reason names one. */
  public Optional<String> typeName() {
    return typeName;
  }

  @Override
  public String code() {
    return "conflict";
  }
}
