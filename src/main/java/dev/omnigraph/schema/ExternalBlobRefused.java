package dev.omnigraph.schema;

import dev.omnigraph.api.InvalidRequest;

/**
 * A Blob input that names an external URI the graph does not allow: no base of
 * {@code omnigraph.graphs.<id>.blob.allow} contains it, it is not a well-formed absolute URI, or it
 * uses a refused spelling ({@code file://}, user info, {@code ..} segments). Refused before any
 * source is probed and before anything is staged (a 400, never a commit).
 */
public final class ExternalBlobRefused extends InvalidRequest {

  private final String uri;
  private final String where;

  /**
   * @param uri the refused input, as given
   * @param where the cell it was written to (type, id and property, or the input line)
   * @param reason why, in words
   */
  public ExternalBlobRefused(String uri, String where, String reason) {
    super("external Blob URI '" + clip(uri) + "' of " + where + " is refused: " + reason);
    this.uri = uri;
    this.where = where;
  }

  private static String clip(String uri) {
    return uri.length() <= 512 ? uri : uri.substring(0, 512) + "…";
  }

  /** The refused input. */
  public String uri() {
    return uri;
  }

  /** The cell the input was written to. */
  public String where() {
    return where;
  }
}
