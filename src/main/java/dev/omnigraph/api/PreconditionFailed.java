package dev.omnigraph.api;

import java.util.Optional;

/**
 * A conditional write's expected graph head is not the branch head. Checked under the branch gate
 * before any effect; never retried. {@code actual} is empty on a branch with no commits.
 */
public class PreconditionFailed extends OmnigraphException {

  private final String expected;
  private final Optional<String> actual;

  public PreconditionFailed(String expected, Optional<String> actual) {
    super("precondition failed: expected graph commit " + expected + ", branch head is " + actual.orElse("<none>"));
    this.expected = expected;
    this.actual = actual;
  }

  /** A precondition of another kind ({@link BlobTagMismatch}), answered the same way (412). */
  protected PreconditionFailed(String message, String expected, Optional<String> actual) {
    super(message);
    this.expected = expected;
    this.actual = actual;
  }

  public String expected() {
    return expected;
  }

  public Optional<String> actual() {
    return actual;
  }

  @Override
  public String code() {
    return null; // as the reference: no ErrorCode, the detail field is the discriminator
  }
}
