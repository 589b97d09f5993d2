package dev.omnigraph.table;

import dev.omnigraph.api.InvalidRequest;

/**
 * A write would rewrite a committed row whose Blob cell it did not materialise: a scan reads a Blob
 * as its description, not its bytes. Updates materialise (write/BlobAdmission); schema-apply
 * rewrites and branch merges do not yet (docs/schema-language.md, "Blob"). Refused before anything
 * is staged, so the bytes are never silently lost.
 */
public final class BlobRewriteUnsupported extends InvalidRequest {

  private final String column;

  public BlobRewriteUnsupported(String column) {
    super("rewriting a stored row that holds a Blob ('" + column + "') is not supported by this operation yet"
        + " (schema-apply rewrites and branch merges): export and load the graph, or leave the row unchanged");
    this.column = column;
  }

  /** The Blob column of the row. */
  public String column() {
    return column;
  }
}
