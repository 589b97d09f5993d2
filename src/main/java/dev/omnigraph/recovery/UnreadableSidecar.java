package dev.omnigraph.recovery;

/**
 * A sidecar that is corrupt, of another format version, or otherwise not a v9 intent. Refused
 * loudly by heal and read-write open; the file stays on disk for an operator.
 */
public final class UnreadableSidecar extends IllegalStateException {

  private final String key;

  public UnreadableSidecar(String key, String why, Throwable cause) {
    super("recovery sidecar " + key + " is refused: " + why + "; it is kept for inspection", cause);
    this.key = key;
  }

  public String key() {
    return key;
  }
}
