package dev.omnigraph.api;

import java.util.Optional;

/**
 * A Blob cell write's {@code If-Match} does not name the cell's current entity tag (or the cell is
 * null, so no tag matches, not even {@code *}). Checked against the pinned cell while planning, and
 * the pin is held by the write's revalidated graph head: nothing was written.
 *
 * <p>{@code expected} is the {@code If-Match} header as sent; {@code actual} the cell's tag, empty
 * for a null cell.
 */
public final class BlobTagMismatch extends PreconditionFailed {

  public BlobTagMismatch(String ifMatch, Optional<String> current) {
    super("precondition failed: If-Match " + ifMatch + " does not match the Blob's entity tag "
        + current.orElse("(the cell is null)"), ifMatch, current);
  }
}
