package dev.omnigraph.api.lease;

import dev.omnigraph.api.Conflict;

/**
 * {@code __lease.json} exists but is not a lease document this build can read (corrupt, or another
 * format version). Nobody can be told whether the lease is live, so acquiring refuses rather than
 * guess; an operator inspects it with {@code omnigraph lease show} and removes it with
 * {@code omnigraph lease break --force} once no writer is running. A {@link Conflict} (exit 3).
 */
public final class LeaseUnreadable extends Conflict {

  private final String content;
  private final String reason;

  public LeaseUnreadable(String rootUri, String content, String reason) {
    super("the writer lease " + rootUri + "/" + LeaseDocument.KEY + " cannot be read: " + reason
        + "; inspect it with omnigraph lease show and, once no writer runs, remove it with omnigraph lease break"
        + " --force");
    this.content = content;
    this.reason = reason;
  }

  /** The stored bytes as UTF-8 text. */
  public String content() {
    return content;
  }

  /** Why it could not be read, in words. */
  public String reason() {
    return reason;
  }
}
