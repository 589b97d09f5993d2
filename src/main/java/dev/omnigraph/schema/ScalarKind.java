package dev.omnigraph.schema;

/**
 * The value kind of a property, as spelled in a {@code .pg} file. {@link #ENUM} is a string restricted
 * to declared variants; {@link #VECTOR} is a fixed-size list of F32 with its dimension on
 * {@link PropertyType#vectorDim()}.
 */
public enum ScalarKind {
  STRING("String"),
  BOOL("Bool"),
  I32("I32"),
  I64("I64"),
  U32("U32"),
  U64("U64"),
  F32("F32"),
  F64("F64"),
  DATE("Date"),
  DATETIME("DateTime"),
  VECTOR("Vector"),
  ENUM("enum"),
  /**
   * Bytes stored in a Lance blob column, read lazily: managed bytes or an external URI. Never a key,
   * an index, a list element, nor a value a query may project, order or aggregate (the reference's
   * T24).
   */
  BLOB("Blob");

  private final String spelling;

  ScalarKind(String spelling) {
    this.spelling = spelling;
  }

  /** The name as written in a schema: {@code String}, {@code DateTime}, {@code Vector}, {@code enum}. */
  public String spelling() {
    return spelling;
  }

  /** Integer and floating kinds: the ones {@code @range} accepts. */
  public boolean isNumeric() {
    return isInteger() || this == F32 || this == F64;
  }

  /** I32, I64, U32, U64. */
  public boolean isInteger() {
    return this == I32 || this == I64 || this == U32 || this == U64;
  }

  /** Kinds spelled by a bare name (everything except {@code Vector(n)} and {@code enum(...)}). */
  static ScalarKind bySpelling(String name) {
    for (ScalarKind kind : values()) {
      if (kind != VECTOR && kind != ENUM && kind.spelling.equals(name)) {
        return kind;
      }
    }
    return null;
  }
}
