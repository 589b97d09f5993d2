package dev.omnigraph.api;

/**
 * A strict insert found the exact id already present (or inserted concurrently by a winner
 * confirmed by a fresh exact-id probe). Terminal: never retried, never turned into an upsert.
 * The write had no effect.
 */
public final class KeyConflict extends OmnigraphException {

  private final String tableKey;
  private final String key;

  public KeyConflict(String tableKey, String key) {
    super("key conflict: " + tableKey + " already has id " + key);
    this.tableKey = tableKey;
    this.key = key;
  }

  /** {@code node:Type} or {@code edge:Type}. */
  public String tableKey() {
    return tableKey;
  }

  /** The exact conflicting id. */
  public String key() {
    return key;
  }

  /** {@code node} or {@code edge}. */
  public String entityKind() {
    return tableKey.substring(0, tableKey.indexOf(':'));
  }

  public String typeName() {
    return tableKey.substring(tableKey.indexOf(':') + 1);
  }

  @Override
  public String code() {
    return "conflict";
  }
}
