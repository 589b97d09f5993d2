package dev.omnigraph.merge;

/**
 * One planned chunk transaction of a table's chain, its boundary fixed before arm from the ordered
 * join's measured row sizes: the effect joins again and stages exactly {@code rows} rows of
 * {@code kind} for it.
 *
 * @param bytes the rows' Arrow bytes as scanned (deletes: the id filter's size)
 */
public record ChunkSpec(Kind kind, int rows, long bytes) {

  /** The chunk's transaction kind (the sidecar's wire names). */
  public enum Kind {
    STRICT_INSERT("strict_insert"), UPSERT("upsert"), DELETE("delete");

    private final String wire;

    Kind(String wire) {
      this.wire = wire;
    }

    public String wire() {
      return wire;
    }
  }
}
