package dev.omnigraph.server;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A structural diff of two OpenAPI documents, one operation at a time: {@code $ref}s are resolved on
 * both sides (and the component names compared where both sides refer), parameters are matched by
 * {@code in} + {@code name}, and every other object is compared key by key, arrays item by item.
 * Prose ({@code description}, {@code summary}, {@code example}, {@code title}) is not compared: the
 * contract is the shape. Each difference is reported with its JSON path, e.g.
 * {@code POST /graphs/{graph_id}/load responses.200...properties.uri: missing in ours}.
 */
final class OpenApiDiff {

  private static final Set<String> PROSE = Set.of("description", "summary", "example", "examples", "title");

  private final JsonNode ours;
  private final JsonNode reference;
  private final List<String> differences = new ArrayList<>();

  private OpenApiDiff(JsonNode ours, JsonNode reference) {
    this.ours = ours;
    this.reference = reference;
  }

  /** Every {@code "METHOD /path"} operation of {@code doc}. */
  static Set<String> operations(JsonNode doc) {
    Set<String> out = new TreeSet<>();
    doc.path("paths").fields().forEachRemaining(p -> p.getValue().fieldNames().forEachRemaining(m -> {
      if (Set.of("get", "put", "post", "delete", "head", "patch", "options").contains(m)) {
        out.add(m.toUpperCase(java.util.Locale.ROOT) + " " + p.getKey());
      }
    }));
    return out;
  }

  /**
   * The differences of {@code operation} ({@code "POST /graphs/{graph_id}/load"}) between the two
   * documents, each as {@code "<operation> <json path>: <what>"}.
   */
  static List<String> operation(JsonNode ours, JsonNode reference, String operation) {
    OpenApiDiff diff = new OpenApiDiff(ours, reference);
    int space = operation.indexOf(' ');
    String method = operation.substring(0, space).toLowerCase(java.util.Locale.ROOT);
    String path = operation.substring(space + 1);
    JsonNode a = ours.path("paths").path(path).path(method);
    JsonNode b = reference.path("paths").path(path).path(method);
    if (a.isMissingNode() || b.isMissingNode()) {
      diff.differences.add(operation + ": " + (a.isMissingNode() ? "missing in ours" : "missing in the reference"));
      return diff.differences;
    }
    for (String key : List.of("operationId", "security", "requestBody")) {
      diff.compare(operation + " " + key, a.path(key), b.path(key));
    }
    diff.compareParameters(operation + " parameters", a.path("parameters"), b.path("parameters"));
    diff.compare(operation + " responses", a.path("responses"), b.path("responses"));
    return diff.differences;
  }

  private void compareParameters(String at, JsonNode a, JsonNode b) {
    Map<String, JsonNode> ourParams = byKey(a);
    Map<String, JsonNode> refParams = byKey(b);
    Set<String> keys = new TreeSet<>(ourParams.keySet());
    keys.addAll(refParams.keySet());
    for (String key : keys) {
      String here = at + "[" + key + "]";
      if (!refParams.containsKey(key)) {
        differences.add(here + ": only in ours");
      } else if (!ourParams.containsKey(key)) {
        differences.add(here + ": missing in ours");
      } else {
        compare(here, ourParams.get(key), refParams.get(key));
      }
    }
  }

  private static Map<String, JsonNode> byKey(JsonNode params) {
    Map<String, JsonNode> out = new LinkedHashMap<>();
    params.forEach(p -> out.put(p.path("in").asText() + ":" + p.path("name").asText(), p));
    return out;
  }

  private void compare(String at, JsonNode a, JsonNode b) {
    compare(at, a, b, new IdentityHashMap<>());
  }

  private void compare(String at, JsonNode a, JsonNode b, IdentityHashMap<JsonNode, JsonNode> visiting) {
    if (a.has("$ref") && b.has("$ref") && !refName(a).equals(refName(b))) {
      differences.add(at + ": component " + refName(a) + " in ours, " + refName(b) + " in the reference");
      return;
    }
    JsonNode x = resolve(ours, a);
    JsonNode y = resolve(reference, b);
    if (visiting.get(x) == y) {
      return; // a recursive schema already being compared on this path
    }
    if (x.isMissingNode() || y.isMissingNode()) {
      if (x.isMissingNode() != y.isMissingNode()) {
        differences.add(at + ": " + (x.isMissingNode() ? "missing in ours" : "only in ours"));
      }
      return;
    }
    if (x.isObject() && y.isObject()) {
      visiting.put(x, y);
      Set<String> keys = new TreeSet<>();
      x.fieldNames().forEachRemaining(keys::add);
      y.fieldNames().forEachRemaining(keys::add);
      for (String key : keys) {
        if (PROSE.contains(key) && !isSchemaProperties(at)) {
          continue;
        }
        compare(at + "." + key, x.path(key), y.path(key), visiting);
      }
      visiting.remove(x);
    } else if (x.isArray() && y.isArray()) {
      if (x.size() != y.size()) {
        differences.add(at + ": " + x.size() + " items in ours, " + y.size() + " in the reference: ours " + x
            + ", reference " + y);
        return;
      }
      Iterator<JsonNode> i = x.elements();
      Iterator<JsonNode> j = y.elements();
      for (int n = 0; i.hasNext(); n++) {
        compare(at + "[" + n + "]", i.next(), j.next(), visiting);
      }
    } else if (!x.equals(y)) {
      differences.add(at + ": ours " + x + ", reference " + y);
    }
  }

  /** Under {@code properties} the keys are field names, so a field called {@code description} counts. */
  private static boolean isSchemaProperties(String at) {
    return at.endsWith(".properties");
  }

  private static String refName(JsonNode node) {
    return node.path("$ref").asText();
  }

  private static JsonNode resolve(JsonNode doc, JsonNode node) {
    JsonNode n = node;
    for (int hops = 0; n.has("$ref") && hops < 32; hops++) {
      String ref = n.path("$ref").asText();
      if (!ref.startsWith("#/")) {
        throw new IllegalArgumentException("only local $refs are supported: " + ref);
      }
      JsonNode target = doc.at(ref.substring(1));
      if (target.isMissingNode()) {
        return target;
      }
      n = target;
    }
    return n;
  }
}
