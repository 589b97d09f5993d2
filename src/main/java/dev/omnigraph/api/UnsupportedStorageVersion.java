package dev.omnigraph.api;

/**
 * The graph's {@code omnigraph:internal_schema_version} stamp is not the one this binary serves. Below
 * it: rebuild through export/import; above it: upgrade omnigraph. There is no in-place migration.
 */
public final class UnsupportedStorageVersion extends OmnigraphException {

  private final int found;
  private final int served;

  public UnsupportedStorageVersion(String root, int found, int served) {
    super(message(root, found, served));
    this.found = found;
    this.served = served;
  }

  private static String message(String root, int found, int served) {
    if (found < served) {
      return "graph at " + root + " is stamped internal schema version " + found
          + ", older than the version " + served + " this omnigraph serves; there is no in-place "
          + "migration: rebuild via export/import (export with the older release, init a new graph "
          + "with this one, and load the export)";
    }
    return "graph at " + root + " is stamped internal schema version " + found
        + ", newer than the version " + served + " this omnigraph serves: upgrade omnigraph";
  }

  public int found() {
    return found;
  }

  public int served() {
    return served;
  }

  @Override
  public String code() {
    return "internal";
  }
}
