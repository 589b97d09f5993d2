package dev.omnigraph.api;


/**
 * A sidecar that is corrupt, of another format version, or otherwise not a v9 intent. Refused
 * loudly by heal and read-write open; the file stays on disk for an operator, whose supported exit
 * is {@code omnigraph recover --quarantine <operation id>} ({@code SidecarStore.quarantine}).
 */
public final class UnreadableSidecar extends IllegalStateException {

  private final String key;
  private final String reason;

  public UnreadableSidecar(String key, String why, Throwable cause) {
    super("recovery sidecar " + key + " is refused: " + why + "; it is kept for inspection"
        + " (inspect it and move it aside with: omnigraph recover --quarantine " + operationIdOf(key) + ")", cause);
    this.key = key;
    this.reason = why;
  }

  public String key() {
    return key;
  }

  /** The operation id the sidecar's name carries ({@code __recovery/<operation id>.json}). */
  public String operationId() {
    return operationIdOf(key);
  }

  /** Why it is refused, without the key: "empty file", "not JSON (…)", "format_version 10 is newer …". */
  public String reason() {
    return reason;
  }

  static String operationIdOf(String key) {
    String name = key.substring(key.lastIndexOf('/') + 1);
    return name.endsWith(".json") ? name.substring(0, name.length() - ".json".length()) : name;
  }
}
