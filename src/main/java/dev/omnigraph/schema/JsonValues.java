package dev.omnigraph.schema;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * Converts a JSON value to the Java value a property of a given type holds: String (String, enum),
 * Boolean, Integer (I32), Long (I64, U32, and U64 as its unsigned bits), Float, Double, LocalDate
 * (Date, from {@code "YYYY-MM-DD"} or epoch days), Instant (DateTime, from ISO-8601 or epoch
 * milliseconds), List for lists and float[] for vectors. JSON null gives null; the caller decides
 * whether null is allowed.
 */
public final class JsonValues {

  private static final BigInteger U64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

  private JsonValues() {}

  /**
   * @throws IllegalArgumentException with a message naming the expected type
   */
  public static Object convert(PropertyType type, JsonNode value) {
    if (value == null || value.isNull()) {
      return null;
    }
    if (type.list()) {
      if (!value.isArray()) {
        throw new IllegalArgumentException("expected a list " + type.display() + ", got " + kind(value));
      }
      List<Object> out = new ArrayList<>(value.size());
      PropertyType element = new PropertyType(type.kind(), false, false, type.enumValues(), type.vectorDim());
      for (JsonNode item : value) {
        Object v = convert(element, item);
        if (v == null) {
          throw new IllegalArgumentException("list elements of " + type.display() + " cannot be null");
        }
        out.add(v);
      }
      return List.copyOf(out);
    }
    return switch (type.kind()) {
      case STRING -> text(type, value);
      case BLOB -> {
        if (!value.isTextual()) {
          throw mismatch(type, value);
        }
        yield BlobValue.parse(value.textValue());
      }
      case ENUM -> {
        String s = text(type, value);
        if (!type.enumValues().contains(s)) {
          throw new IllegalArgumentException("'" + s + "' is not one of " + type.display());
        }
        yield s;
      }
      case BOOL -> {
        if (!value.isBoolean()) {
          throw mismatch(type, value);
        }
        yield value.booleanValue();
      }
      case I32 -> (int) integer(type, value, Integer.MIN_VALUE, Integer.MAX_VALUE);
      case I64 -> integer(type, value, Long.MIN_VALUE, Long.MAX_VALUE);
      case U32 -> integer(type, value, 0, 0xFFFF_FFFFL);
      case U64 -> {
        if (!value.isIntegralNumber()) {
          throw mismatch(type, value);
        }
        BigInteger b = value.bigIntegerValue();
        if (b.signum() < 0 || b.compareTo(U64_MAX) > 0) {
          throw new IllegalArgumentException(b + " is out of range for U64");
        }
        yield b.longValue();
      }
      case F32 -> {
        if (!value.isNumber()) {
          throw mismatch(type, value);
        }
        float f = value.floatValue();
        if (!Float.isFinite(f)) {
          throw new IllegalArgumentException(value + " is out of range for F32");
        }
        yield f;
      }
      case F64 -> {
        if (!value.isNumber()) {
          throw mismatch(type, value);
        }
        yield value.doubleValue();
      }
      case DATE -> {
        if (value.isIntegralNumber()) {
          yield LocalDate.ofEpochDay(value.longValue());
        }
        try {
          yield LocalDate.parse(text(type, value));
        } catch (DateTimeParseException e) {
          throw new IllegalArgumentException("'" + value.asText() + "' is not a date (YYYY-MM-DD)");
        }
      }
      case DATETIME -> {
        if (value.isIntegralNumber()) {
          yield Instant.ofEpochMilli(value.longValue());
        }
        try {
          yield Instant.parse(text(type, value));
        } catch (DateTimeParseException e) {
          try {
            yield java.time.OffsetDateTime.parse(value.asText()).toInstant();
          } catch (DateTimeParseException e2) {
            throw new IllegalArgumentException("'" + value.asText()
                + "' is not a DateTime (ISO-8601, e.g. 2024-01-31T12:00:00Z, or epoch milliseconds)");
          }
        }
      }
      case VECTOR -> {
        if (!value.isArray() || value.size() != type.vectorDim()) {
          throw new IllegalArgumentException("expected " + type.display() + " (an array of "
              + type.vectorDim() + " numbers), got " + kind(value));
        }
        float[] out = new float[type.vectorDim()];
        for (int i = 0; i < out.length; i++) {
          if (!value.get(i).isNumber()) {
            throw new IllegalArgumentException("vector element " + i + " is not a number");
          }
          out[i] = value.get(i).floatValue();
        }
        yield out;
      }
    };
  }

  private static String text(PropertyType type, JsonNode value) {
    if (!value.isTextual()) {
      throw mismatch(type, value);
    }
    String tooLong = ValueLimits.stringTooLong(value.textValue());
    if (tooLong != null) {
      throw new IllegalArgumentException(tooLong);
    }
    return value.textValue();
  }

  private static long integer(PropertyType type, JsonNode value, long min, long max) {
    if (!value.isIntegralNumber() || !value.canConvertToLong()) {
      throw mismatch(type, value);
    }
    long v = value.longValue();
    if (v < min || v > max) {
      throw new IllegalArgumentException(v + " is out of range for " + type.kind().spelling());
    }
    return v;
  }

  private static IllegalArgumentException mismatch(PropertyType type, JsonNode value) {
    return new IllegalArgumentException("expected " + type.display() + ", got " + kind(value) + " " + value);
  }

  private static String kind(JsonNode v) {
    return v.isTextual() ? "a string" : v.isNumber() ? "a number" : v.isBoolean() ? "a boolean"
        : v.isArray() ? "a list" : v.isObject() ? "an object" : "null";
  }
}
