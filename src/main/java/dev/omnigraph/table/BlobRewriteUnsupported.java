package dev.omnigraph.table;

import dev.omnigraph.api.InvalidRequest;

/**
 * A write would rewrite a committed row whose Blob cell this build cannot carry over: a scan reads
 * a Blob as its description, not its bytes, and the rewrite that reads the matched payloads back
 * (docs/schema-language.md, "Blob") is not built yet. Refused before anything is staged, so the
 * bytes are never silently lost.
 */
public final class BlobRewriteUnsupported extends InvalidRequest {

  private final String column;

  public BlobRewriteUnsupported(String column) {
    super("rewriting a stored row that holds a Blob ('" + column + "') is not supported yet:"
        + " insert the row again with its Blob value, or leave the row unchanged");
    this.column = column;
  }

  /** The Blob column of the row. */
  public String column() {
    return column;
  }
}
