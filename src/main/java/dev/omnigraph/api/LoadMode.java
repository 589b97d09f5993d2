package dev.omnigraph.api;

/** NDJSON load modes (reference {@code LoadMode}). */
public enum LoadMode {
  /** Strict insert: an existing id is a {@code KeyConflict}; stays strict through reprepare. */
  APPEND,
  /** Upsert by id. */
  MERGE,
  /** Validate everything, then replace the content of every touched table. */
  OVERWRITE;

  public static LoadMode parse(String s) {
    return switch (s.toLowerCase(java.util.Locale.ROOT)) {
      case "append" -> APPEND;
      case "merge" -> MERGE;
      case "overwrite" -> OVERWRITE;
      default -> throw new dev.omnigraph.api.InvalidRequest("unknown load mode '" + s + "' (append, merge, overwrite)");
    };
  }

  public String wire() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
