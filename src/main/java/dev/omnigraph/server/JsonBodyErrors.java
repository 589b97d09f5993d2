package dev.omnigraph.server;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import dev.omnigraph.util.StrictJson;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;

/**
 * A request body Jackson could not read, said in the client's terms: where (line and column of the
 * body) and what (the syntax problem, or the field and the JSON type it takes). Never a Java class
 * name: Jackson's own messages name the target classes ({@code java.util.LinkedHashMap},
 * {@code Requests$QueryRequest}), which say nothing to a client and leak the implementation. Nor its
 * syntax messages, which name its settings ({@code StreamReadConstraints.getMaxNestingDepth()}): what
 * went wrong is said from the failure's type and fields ({@link StrictJson#reason}).
 */
final class JsonBodyErrors {

  private JsonBodyErrors() {}

  /** The message of a 400 for {@code failure}. */
  static String describe(JsonProcessingException failure) {
    String at = position(failure.getLocation());
    if (failure instanceof UnrecognizedPropertyException u) {
      return "invalid request body" + at + ": unknown field '" + path(u.getPath()) + "'";
    }
    if (failure instanceof MismatchedInputException m && m.getPath().isEmpty() && afterTheRootValue(m)) {
      // FAIL_ON_TRAILING_TOKENS (StrictJsonBodies): a second value after the body's object.
      return "malformed JSON in request body" + at + ": unexpected content after the JSON object"
          + " (the body is exactly one object)";
    }
    if (failure instanceof MismatchedInputException m) {
      String field = path(m.getPath());
      String expected = expected(m.getTargetType());
      return field.isEmpty()
          ? "invalid request body" + at + ": the body must be " + expected
          : "invalid request body" + at + ": field '" + field + "' must be " + expected;
    }
    if (failure instanceof JsonMappingException && failure.getCause() instanceof JsonProcessingException syntax) {
      // A syntax error, a key given twice or a reader limit (nesting depth, a number's length) met
      // while binding a field.
      String where = syntax.getLocation() != null ? position(syntax.getLocation()) : at;
      return "malformed JSON in request body" + where + ": " + StrictJson.reason(syntax);
    }
    if (failure instanceof JsonMappingException m && !m.getPath().isEmpty()) {
      return "invalid request body" + at + ": field '" + path(m.getPath()) + "' has a value this route cannot take";
    }
    if (failure instanceof JsonMappingException) {
      return "invalid request body" + at;
    }
    return "malformed JSON in request body" + at + ": " + StrictJson.reason(failure);
  }

  /**
   * Whether the parser had begun a second top-level value when {@code m} was raised: the evidence of
   * a trailing-token refusal, read from the parser's state rather than from the message.
   */
  private static boolean afterTheRootValue(MismatchedInputException m) {
    if (!(m.getProcessor() instanceof JsonParser p)) {
      return false;
    }
    JsonStreamContext context = p.getParsingContext();
    while (context != null && !context.inRoot()) {
      context = context.getParent();
    }
    return context != null && context.getCurrentIndex() >= 1;
  }

  private static String position(JsonLocation location) {
    if (location == null || location.getLineNr() < 1) {
      return "";
    }
    return " at line " + location.getLineNr() + ", column " + location.getColumnNr();
  }

  /** {@code params}, {@code type_names[2]}: the JSON path of the offending value. */
  private static String path(List<JsonMappingException.Reference> refs) {
    StringBuilder b = new StringBuilder();
    for (JsonMappingException.Reference r : refs) {
      if (r.getFieldName() != null) {
        if (b.length() > 0) {
          b.append('.');
        }
        b.append(r.getFieldName());
      } else if (r.getIndex() >= 0) {
        b.append('[').append(r.getIndex()).append(']');
      }
    }
    return b.toString();
  }

  /** The JSON type a Java target takes. */
  private static String expected(Class<?> raw) {
    if (raw == null) {
      return "a value of another JSON type";
    }
    if (java.util.Collection.class.isAssignableFrom(raw) || (raw.isArray() && raw != char[].class)) {
      return "an array";
    }
    if (CharSequence.class.isAssignableFrom(raw) || raw == char.class || raw == Character.class) {
      return "a string";
    }
    if (raw == boolean.class || raw == Boolean.class) {
      return "true or false";
    }
    if (raw == int.class || raw == long.class || raw == short.class || raw == byte.class
        || raw == Integer.class || raw == Long.class || raw == Short.class || raw == Byte.class
        || raw == BigInteger.class) {
      return "an integer";
    }
    if (raw == double.class || raw == float.class || Number.class.isAssignableFrom(raw)
        || raw == BigDecimal.class) {
      return "a number";
    }
    if (JsonNode.class.isAssignableFrom(raw)) {
      return "a JSON value";
    }
    return "an object";
  }
}
