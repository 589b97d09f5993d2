package dev.omnigraph.manifest;

/** A {@code __manifest} row that does not decode: the graph needs an operator, not a retry. */
public final class ManifestCorrupt extends IllegalStateException {

  public ManifestCorrupt(String objectId, String why) {
    super("__manifest row " + objectId + " is malformed: " + why);
  }
}
