package dev.omnigraph.schema;

/**
 * The physical index a declared column gets (docs/indexes-and-search.md, "Building indexes"): the
 * one place the property type decides it, shared by the EnsureIndices writer's planning and by
 * everything that asks whether a column is (or should be) indexed, so the two cannot drift (the
 * reference's {@code node_prop_index_kind}).
 */
public enum IndexKind {
  /** A Lance BTree scalar index: {@code =}, ranges, {@code IN}, null tests, prefix. */
  BTREE,
  /** A Lance inverted (full-text) index: {@code search}, {@code match_text}, {@code bm25}. */
  INVERTED,
  /** A Lance vector index (IVF, cosine): {@code nearest}. */
  VECTOR,
  /** No index: lists (and Blob, later) are not indexable. */
  NONE
}
