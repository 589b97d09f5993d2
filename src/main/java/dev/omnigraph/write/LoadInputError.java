package dev.omnigraph.write;

import dev.omnigraph.api.InvalidRequest;

/** A load line that cannot be accepted; names the 1-based line. Nothing was written. */
public final class LoadInputError extends InvalidRequest {

  private final long line;

  public LoadInputError(long line, String message) {
    super("line " + line + ": " + message);
    this.line = line;
  }

  public long line() {
    return line;
  }
}
