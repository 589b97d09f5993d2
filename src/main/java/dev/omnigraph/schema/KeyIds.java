package dev.omnigraph.schema;

import dev.omnigraph.schema.InvalidKeyException.Reason;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Derives a keyed node's {@code id} from its complete {@code @key} tuple (PRODUCT.md §4). Every writer
 * (load, insert, upsert, merge) goes through here, so the same tuple always yields the same id, which
 * is what makes strict-insert conflicts and upserts exact.
 *
 * <p>One key property: the id is the value's canonical spelling. Several: a compact JSON array of
 * the canonical spellings in the order of the {@code @key(a, b)} list, e.g. {@code ["acme","7"]},
 * escaped exactly as serde_json escapes ({@code \" \\ \b \f \n \r \t}, other control characters as
 * <code>&#92;u00xx</code> with lower-case hex, nothing else), so ids match the reference byte for byte.
 *
 * <p>Canonical spellings, by declared type, and the Java values accepted:
 * <table>
 *   <caption>canonical key spellings</caption>
 *   <tr><th>type</th><th>accepted Java values</th><th>spelling</th></tr>
 *   <tr><td>String</td><td>{@link CharSequence}</td><td>as is (unpaired surrogates refused)</td></tr>
 *   <tr><td>enum</td><td>{@link CharSequence} naming a variant</td><td>the variant name</td></tr>
 *   <tr><td>Bool</td><td>{@link Boolean}</td><td>{@code true} / {@code false}</td></tr>
 *   <tr><td>I32, I64, U32, U64</td><td>Byte, Short, Integer, Long, {@link BigInteger}, within the
 *       declared width (U64 as a non-negative Long or a BigInteger)</td><td>decimal</td></tr>
 *   <tr><td>F32, F64</td><td>Float, Double, or an integral Number; narrowed to the stored width
 *       first</td><td>shortest round-trip decimal at that width, plain notation, both zeros
 *       {@code 0}; NaN and infinities refused</td></tr>
 *   <tr><td>Date</td><td>{@link LocalDate}, or Integer/Long epoch days</td><td>epoch days</td></tr>
 *   <tr><td>DateTime</td><td>{@link Instant}, {@link OffsetDateTime}, {@link ZonedDateTime}, or
 *       Integer/Long epoch milliseconds</td><td>epoch milliseconds (sub-millisecond part floored, as
 *       storage does)</td></tr>
 * </table>
 */
public final class KeyIds {

  private KeyIds() {}

  private static final BigInteger U64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

  /**
   * The id of a keyed node whose property values are {@code values}.
   *
   * @param type a keyed node type
   * @param values property values by name; only the key properties are read
   * @throws InvalidKeyException if the type is unkeyed, a key value is missing, null or unusable, or
   *     the id is over {@link ValueLimits#MAX_ID_BYTES}
   */
  public static String nodeId(NodeType type, Map<String, ?> values) {
    if (!type.isKeyed()) {
      throw new InvalidKeyException(type.name(), null, Reason.NOT_KEYED, "the type has no @key; its ids are generated");
    }
    List<String> parts = new ArrayList<>(type.key().size());
    for (String name : type.key()) {
      Property p = type.property(name).orElseThrow();
      parts.add(canonical(type, p, values.get(name)));
    }
    String id = tupleId(parts);
    String tooLong = ValueLimits.idTooLong("the id", id);
    if (tooLong != null) {
      throw new InvalidKeyException(type.name(), type.key().size() == 1 ? type.key().get(0) : null, Reason.TOO_LONG,
          tooLong);
    }
    return id;
  }

  /**
   * The canonical spelling of one key value, also what uniqueness tuples compare.
   *
   * @param type the node type, for messages
   * @param property the property the value belongs to
   * @param value the value, see the class table for accepted Java types
   * @throws InvalidKeyException if the value is null or cannot be spelled
   */
  public static String canonical(NodeType type, Property property, Object value) {
    String typeName = type.name();
    String name = property.name();
    PropertyType t = property.type();
    if (value == null) {
      throw new InvalidKeyException(typeName, name, Reason.NULL, "key values must not be null");
    }
    if (!t.isSingleScalar()) {
      throw new InvalidKeyException(typeName, name, Reason.TYPE_MISMATCH, t.display() + " cannot be a key");
    }
    return switch (t.kind()) {
      case STRING -> string(typeName, name, value);
      case ENUM -> {
        String s = string(typeName, name, value);
        if (!t.enumValues().contains(s)) {
          throw new InvalidKeyException(typeName, name, Reason.NOT_A_VARIANT,
              "'" + s + "' is not one of " + t.display());
        }
        yield s;
      }
      case BOOL -> {
        if (!(value instanceof Boolean b)) {
          throw mismatch(typeName, name, t, value);
        }
        yield b.toString();
      }
      case I32 -> integer(typeName, name, t, value, BigInteger.valueOf(Integer.MIN_VALUE), BigInteger.valueOf(Integer.MAX_VALUE));
      case I64 -> integer(typeName, name, t, value, BigInteger.valueOf(Long.MIN_VALUE), BigInteger.valueOf(Long.MAX_VALUE));
      case U32 -> integer(typeName, name, t, value, BigInteger.ZERO, BigInteger.valueOf(0xFFFF_FFFFL));
      case U64 -> integer(typeName, name, t, value, BigInteger.ZERO, U64_MAX);
      case F32 -> {
        float f = floatingValue(typeName, name, t, value).floatValue();
        requireFinite(typeName, name, f, value);
        yield FloatSpelling.ofFloat(f);
      }
      case F64 -> {
        double d = floatingValue(typeName, name, t, value).doubleValue();
        requireFinite(typeName, name, d, value);
        yield FloatSpelling.ofDouble(d);
      }
      case DATE -> {
        long days;
        if (value instanceof LocalDate date) {
          days = date.toEpochDay();
        } else if (value instanceof Integer || value instanceof Long) {
          days = ((Number) value).longValue();
        } else {
          throw mismatch(typeName, name, t, value);
        }
        // Date is stored as Arrow Date32: days must fit in an i32.
        if (days < Integer.MIN_VALUE || days > Integer.MAX_VALUE) {
          throw new InvalidKeyException(typeName, name, Reason.OUT_OF_RANGE, value + " is outside the Date range");
        }
        yield Long.toString(days);
      }
      case DATETIME -> {
        Instant instant;
        if (value instanceof Instant i) {
          instant = i;
        } else if (value instanceof OffsetDateTime o) {
          instant = o.toInstant();
        } else if (value instanceof ZonedDateTime z) {
          instant = z.toInstant();
        } else if (value instanceof Integer || value instanceof Long) {
          yield Long.toString(((Number) value).longValue());
        } else {
          throw mismatch(typeName, name, t, value);
        }
        try {
          yield Long.toString(instant.toEpochMilli());
        } catch (ArithmeticException e) {
          throw new InvalidKeyException(typeName, name, Reason.OUT_OF_RANGE, value + " is outside the DateTime range");
        }
      }
      case VECTOR, BLOB -> throw mismatch(typeName, name, t, value);
    };
  }

  /**
   * The id for an already canonical tuple: the single spelling itself, or the compact JSON array.
   *
   * @param parts canonical spellings in key order, at least one
   */
  public static String tupleId(List<String> parts) {
    if (parts.isEmpty()) {
      throw new IllegalArgumentException("a key tuple has at least one value");
    }
    if (parts.size() == 1) {
      return parts.get(0);
    }
    StringBuilder out = new StringBuilder();
    out.append('[');
    for (int i = 0; i < parts.size(); i++) {
      if (i > 0) {
        out.append(',');
      }
      appendJsonString(out, parts.get(i));
    }
    return out.append(']').toString();
  }

  /** serde_json's string escaping, which Jackson's differs from (upper-case hex, '/' options). */
  private static void appendJsonString(StringBuilder out, String s) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append("\\u00").append(Character.forDigit(c >> 4, 16)).append(Character.forDigit(c & 0xF, 16));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }

  private static String string(String typeName, String name, Object value) {
    if (!(value instanceof CharSequence cs)) {
      throw new InvalidKeyException(typeName, name, Reason.TYPE_MISMATCH,
          "expected a string, got " + value.getClass().getSimpleName());
    }
    String s = cs.toString();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        throw new InvalidKeyException(typeName, name, Reason.MALFORMED_STRING,
            "unpaired surrogate U+" + Integer.toHexString(c).toUpperCase() + " at index " + i);
      }
    }
    return s;
  }

  private static String integer(String typeName, String name, PropertyType t, Object value, BigInteger min, BigInteger max) {
    BigInteger v;
    if (value instanceof Byte || value instanceof Short || value instanceof Integer || value instanceof Long) {
      v = BigInteger.valueOf(((Number) value).longValue());
    } else if (value instanceof BigInteger b) {
      v = b;
    } else {
      throw mismatch(typeName, name, t, value);
    }
    if (v.compareTo(min) < 0 || v.compareTo(max) > 0) {
      throw new InvalidKeyException(typeName, name, Reason.OUT_OF_RANGE,
          v + " is outside the " + t.display() + " range " + min + ".." + max);
    }
    return v.toString();
  }

  private static Number floatingValue(String typeName, String name, PropertyType t, Object value) {
    if (value instanceof Float || value instanceof Double || value instanceof Byte || value instanceof Short
        || value instanceof Integer || value instanceof Long) {
      return (Number) value;
    }
    throw mismatch(typeName, name, t, value);
  }

  private static void requireFinite(String typeName, String name, double narrowed, Object original) {
    if (!Double.isFinite(narrowed)) {
      throw new InvalidKeyException(typeName, name, Reason.NON_FINITE,
          original + " is not a finite number" + (original instanceof Double d && Double.isFinite(d)
              ? " at the stored width (F32 overflows)" : "") + "; NaN and infinities cannot be keys");
    }
  }

  private static InvalidKeyException mismatch(String typeName, String name, PropertyType t, Object value) {
    return new InvalidKeyException(typeName, name, Reason.TYPE_MISMATCH,
        "a " + value.getClass().getSimpleName() + " cannot hold a " + t.display() + " value");
  }
}
