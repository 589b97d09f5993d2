package dev.omnigraph.engine.gqt;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Row comparison as the reference's format defines it: both sides normalized to one canonical
 * line per row (object keys sorted, a null cell's key dropped as the result JSON drops it, every
 * number as a decimal rounded at the twelfth place), then compared as a multiset ({@code unordered})
 * or position by position ({@code ordered}). Numbers go through {@link BigDecimal}, never a double,
 * so two U64 values above 2^53 stay distinct, and a hand-written {@code 2} equals a result's
 * {@code 2.0}.
 */
final class GqtRows {

  private static final ObjectMapper JSON = new ObjectMapper()
      .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
      .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS);

  private GqtRows() {}

  /** The canonical line of a JSON text (an expected row). */
  static String canonical(String json) {
    try {
      return canonical(JSON.readTree(json), true);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalArgumentException(e.getOriginalMessage(), e);
    }
  }

  /** The canonical line of a result row. A Float keeps its 32-bit spelling, as the result JSON writes it. */
  static String canonical(Map<String, Object> row) {
    try {
      return canonical(JSON.readTree(JSON.writeValueAsString(row)), true);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String canonical(JsonNode n, boolean top) {
    if (n.isObject()) {
      Map<String, String> fields = new TreeMap<>();
      for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> f = it.next();
        // A row omits a null cell's key (RFC 0051); an expectation may spell it either way.
        if (top && f.getValue().isNull()) {
          continue;
        }
        fields.put(f.getKey(), canonical(f.getValue(), false));
      }
      StringBuilder b = new StringBuilder("{");
      fields.forEach((k, v) -> {
        if (b.length() > 1) {
          b.append(", ");
        }
        b.append(text(k)).append(": ").append(v);
      });
      return b.append('}').toString();
    }
    if (n.isArray()) {
      List<String> items = new ArrayList<>();
      n.forEach(e -> items.add(canonical(e, false)));
      return "[" + String.join(", ", items) + "]";
    }
    if (n.isNumber()) {
      BigDecimal d = n.decimalValue().setScale(12, RoundingMode.HALF_EVEN).stripTrailingZeros();
      return d.signum() == 0 ? "0" : d.toPlainString();
    }
    if (n.isTextual()) {
      return text(n.textValue());
    }
    return n.toString(); // true, false, null
  }

  private static String text(String s) {
    try {
      return JSON.writeValueAsString(s);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * The difference between expected and actual canonical rows, or null when they agree: for
   * {@code ordered} the first differing position and both lists; otherwise the rows missing from
   * the result ({@code -}) and the rows it should not have ({@code +}), counted by multiplicity.
   */
  static String diff(List<String> expected, List<String> actual, boolean ordered) {
    if (ordered) {
      if (expected.equals(actual)) {
        return null;
      }
      int first = 0;
      while (first < Math.min(expected.size(), actual.size()) && expected.get(first).equals(actual.get(first))) {
        first++;
      }
      StringBuilder b = new StringBuilder();
      b.append("rows differ from position ").append(first + 1).append(" (ordered)\n");
      b.append("expected (").append(expected.size()).append(rowsWord(expected.size())).append("):\n");
      for (int i = 0; i < expected.size(); i++) {
        b.append(i == first ? "  > " : "    ").append(expected.get(i)).append('\n');
      }
      b.append("actual (").append(actual.size()).append(rowsWord(actual.size())).append("):\n");
      for (int i = 0; i < actual.size(); i++) {
        b.append(i == first ? "  > " : "    ").append(actual.get(i)).append('\n');
      }
      return b.toString();
    }
    List<String> missing = new ArrayList<>(expected);
    List<String> extra = new ArrayList<>();
    for (String a : actual) {
      if (!missing.remove(a)) {
        extra.add(a);
      }
    }
    if (missing.isEmpty() && extra.isEmpty()) {
      return null;
    }
    missing.sort(null);
    extra.sort(null);
    StringBuilder b = new StringBuilder();
    b.append("rows differ (unordered): expected ").append(expected.size()).append(rowsWord(expected.size()))
        .append(", got ").append(actual.size()).append('\n');
    missing.forEach(m -> b.append("  - ").append(m).append("   (expected, missing)\n"));
    extra.forEach(x -> b.append("  + ").append(x).append("   (actual, not expected)\n"));
    return b.toString();
  }

  private static String rowsWord(int n) {
    return n == 1 ? " row" : " rows";
  }
}
