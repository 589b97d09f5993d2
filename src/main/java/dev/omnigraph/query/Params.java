package dev.omnigraph.query;

import com.fasterxml.jackson.databind.JsonNode;
import dev.omnigraph.schema.PropertyType;
import dev.omnigraph.schema.ScalarKind;
import java.math.BigInteger;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Binds a request's JSON parameters to a checked query's declared parameters. */
public final class Params {

  private Params() {}

  /**
   * Converts a JSON object of parameters, keyed by name without {@code $}, to typed values.
   *
   * <p>Conversions: String from a JSON string; Bool from a JSON boolean; I32 to Integer, I64, U32 and
   * U64 to Long, from JSON integers within the type's range (U64 above 2^63-1 to BigInteger); F32 to Float and F64 to
   * Double from any JSON number; Date to LocalDate from {@code "YYYY-MM-DD"}; DateTime to Instant from an
   * ISO-8601 string with an offset or from integer epoch milliseconds; {@code [T]} to an unmodifiable
   * List from a JSON array without nulls; {@code Vector(n)} to float[] from an array of n numbers.
   * Numbers in strings, and fractions for integer types, are refused rather than coerced.
   *
   * @param query the checked query
   * @param params a JSON object; null, JSON null or a missing node count as {@code {}}
   * @return every declared parameter's value, null for an optional one left out or given as null
   * @throws QueryParamException for a missing required parameter, an undeclared one, or a value that
   *     does not fit its declared type (a string holding an unpaired surrogate, such as JSON's
   *     {@code "\ud800"}, fits no type: it has no UTF-8 form)
   */
  public static BoundParams bind(CheckedQuery query, JsonNode params) {
    Objects.requireNonNull(query, "query");
    String name = query.name();
    Map<String, ParamDecl> declared = new LinkedHashMap<>();
    query.params().forEach(p -> declared.put(p.name(), p));
    boolean absent = params == null || params.isNull() || params.isMissingNode();
    if (!absent && !params.isObject()) {
      throw new QueryParamException(name, null, "parameters must be a JSON object, got " + describe(params));
    }
    if (!absent) {
      for (Iterator<String> it = params.fieldNames(); it.hasNext(); ) {
        String field = it.next();
        if (!declared.containsKey(field)) {
          throw new QueryParamException(name, field, "not declared by the query"
              + Hints.hint(field, declared.keySet()) + "; "
              + (declared.isEmpty() ? "it takes no parameters" : "it declares $" + String.join(", $", declared.keySet())));
        }
      }
    }
    Map<String, Object> values = new LinkedHashMap<>();
    for (ParamDecl p : declared.values()) {
      JsonNode v = absent ? null : params.get(p.name());
      if (v == null || v.isNull()) {
        if (!p.optional()) {
          throw new QueryParamException(name, p.name(), (v == null ? "missing" : "null")
              + "; it is required (" + p.type().display() + ")");
        }
        values.put(p.name(), null);
        continue;
      }
      try {
        values.put(p.name(), convert(v, p.type()));
      } catch (Values.Misfit m) {
        throw new QueryParamException(name, p.name(), m.getMessage());
      }
    }
    return new BoundParams(name, values);
  }

  private static Object convert(JsonNode v, PropertyType type) throws Values.Misfit {
    if (type.kind() == ScalarKind.VECTOR) {
      if (!v.isArray() || v.size() != type.vectorDim()) {
        throw new Values.Misfit("expected " + type.display() + ", an array of " + type.vectorDim() + " numbers, got "
            + describe(v));
      }
      float[] out = new float[v.size()];
      for (int i = 0; i < out.length; i++) {
        JsonNode item = v.get(i);
        if (!item.isNumber()) {
          throw new Values.Misfit("element " + i + " of the vector: expected a number, got " + describe(item));
        }
        out[i] = (Float) Values.floating(item.decimalValue(), ScalarKind.F32);
      }
      return out;
    }
    if (type.list()) {
      if (!v.isArray()) {
        throw new Values.Misfit("expected " + type.display() + ", a JSON array, got " + describe(v));
      }
      PropertyType element = new PropertyType(type.kind(), false, false, type.enumValues(), 0);
      List<Object> out = new ArrayList<>(v.size());
      for (int i = 0; i < v.size(); i++) {
        JsonNode item = v.get(i);
        if (item.isNull()) {
          throw new Values.Misfit("element " + i + " is null; list elements cannot be null");
        }
        try {
          out.add(convert(item, element));
        } catch (Values.Misfit m) {
          throw new Values.Misfit("element " + i + ": " + m.getMessage());
        }
      }
      return List.copyOf(out);
    }
    switch (type.kind()) {
      case STRING, ENUM -> {
        if (v.isTextual()) {
          return Values.text(v.textValue());
        }
      }
      case BLOB -> {
        if (v.isTextual()) {
          return dev.omnigraph.schema.BlobValue.parse(v.textValue());
        }
      }
      case BOOL -> {
        if (v.isBoolean()) {
          return v.booleanValue();
        }
      }
      case I32, I64, U32, U64 -> {
        if (v.isIntegralNumber()) {
          return Values.integer(v.bigIntegerValue(), type.kind());
        }
      }
      case F32, F64 -> {
        if (v.isNumber()) {
          return Values.floating(v.decimalValue(), type.kind());
        }
      }
      case DATE -> {
        if (v.isTextual()) {
          return Values.date(v.textValue());
        }
      }
      case DATETIME -> {
        if (v.isTextual()) {
          return Values.instant(v.textValue());
        }
        if (v.isIntegralNumber()) {
          BigInteger millis = v.bigIntegerValue();
          try {
            return Instant.ofEpochMilli(millis.longValueExact());
          } catch (ArithmeticException | DateTimeException e) {
            throw new Values.Misfit(millis + " epoch milliseconds is out of range for DateTime");
          }
        }
      }
      default -> throw new IllegalStateException("unexpected parameter kind " + type.kind());
    }
    throw new Values.Misfit("expected " + expectation(type.kind()) + ", got " + describe(v));
  }

  private static String expectation(ScalarKind kind) {
    return switch (kind) {
      case STRING, ENUM -> "a String (a JSON string)";
      case BOOL -> "a Bool (true or false)";
      case I32, I64, U32, U64 -> "an " + kind.spelling() + " (a JSON integer)";
      case F32, F64 -> "an " + kind.spelling() + " (a JSON number)";
      case DATE -> "a Date (a \"YYYY-MM-DD\" string)";
      case DATETIME -> "a DateTime (an ISO-8601 string with offset, or epoch milliseconds)";
      case BLOB -> "a Blob (a \"base64:<payload>\" string)";
      default -> kind.spelling();
    };
  }

  private static String describe(JsonNode v) {
    String text = v.toString();
    if (text.length() > 40) {
      text = text.substring(0, 37) + "...";
    }
    String kind = v.isTextual() ? "string" : v.isNumber() ? "number" : v.isBoolean() ? "boolean"
        : v.isArray() ? "array" : v.isObject() ? "object" : "null";
    return kind + " " + text;
  }
}
