package dev.omnigraph.schema;

import java.util.List;
import java.util.Objects;

/**
 * The declared type of a property.
 *
 * @param kind the element kind
 * @param list {@code [T]}: a list of {@code kind}
 * @param nullable {@code T?}: the value (for a list, the whole list) may be null
 * @param enumValues the variants, sorted and distinct, when {@code kind} is {@link ScalarKind#ENUM};
 *     otherwise empty
 * @param vectorDim the dimension when {@code kind} is {@link ScalarKind#VECTOR}; otherwise 0
 */
public record PropertyType(
    ScalarKind kind, boolean list, boolean nullable, List<String> enumValues, int vectorDim) {

  public PropertyType {
    Objects.requireNonNull(kind, "kind");
    enumValues = List.copyOf(enumValues);
    if ((kind == ScalarKind.ENUM) == enumValues.isEmpty()) {
      throw new IllegalArgumentException("enum values must be present exactly for enum types");
    }
    if ((kind == ScalarKind.VECTOR) != (vectorDim > 0) || vectorDim < 0) {
      throw new IllegalArgumentException("a positive dimension must be present exactly for vectors");
    }
    if (list && (kind == ScalarKind.VECTOR || kind == ScalarKind.ENUM || kind == ScalarKind.BLOB)) {
      throw new IllegalArgumentException("lists hold plain scalars only");
    }
  }

  /** A plain scalar such as {@code I64} or {@code String?}. */
  public static PropertyType scalar(ScalarKind kind, boolean nullable) {
    return new PropertyType(kind, false, nullable, List.of(), 0);
  }

  /** True when the value is a single plain scalar, enum included: what {@code @key} may name. */
  public boolean isSingleScalar() {
    return !list && kind != ScalarKind.VECTOR && kind != ScalarKind.BLOB;
  }

  /** True for {@code Blob} and {@code Blob?}: bytes read lazily, never materialised with the row. */
  public boolean isBlob() {
    return kind == ScalarKind.BLOB;
  }

  /** The type as a schema would spell it: {@code [I32]?}, {@code enum(a, b)}, {@code Vector(3)}. */
  public String display() {
    String base = switch (kind) {
      case ENUM -> "enum(" + String.join(", ", enumValues) + ")";
      case VECTOR -> "Vector(" + vectorDim + ")";
      default -> kind.spelling();
    };
    if (list) {
      base = "[" + base + "]";
    }
    return nullable ? base + "?" : base;
  }

  @Override
  public String toString() {
    return display();
  }
}
