package dev.omnigraph.engine.policy;

import dev.omnigraph.api.policy.PolicyRefused;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads the top level of a policy (or policy test) YAML document with the line each list item starts
 * on: the values are Jackson trees, the lines come from the parser, so a refused rule can be named by
 * id and line. Keys are strict (an unknown or repeated key is refused, as the reference's
 * {@code deny_unknown_fields}): a misspelt {@code branch_scop} must not widen a rule silently.
 */
final class PolicyYaml {

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory())
      .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

  /** A list item with the line it starts on. */
  record Item(JsonNode node, int line) {}

  /** The document: each top-level key's value, and for list values the items with their lines. */
  record Document(Map<String, JsonNode> values, Map<String, Integer> lines, Map<String, List<Item>> lists) {}

  private PolicyYaml() {}

  /**
   * @throws PolicyRefused when the source is not YAML, not a mapping, or has a key outside {@code keys}
   */
  static Document read(String source, String origin, Set<String> keys) {
    Map<String, JsonNode> values = new LinkedHashMap<>();
    Map<String, Integer> lines = new LinkedHashMap<>();
    Map<String, List<Item>> lists = new LinkedHashMap<>();
    try (JsonParser p = YAML.createParser(source)) {
      JsonToken t = p.nextToken();
      if (t != JsonToken.START_OBJECT) {
        throw new PolicyRefused(origin, t == null ? 0 : line(p), Optional.empty(),
            "expected a mapping with the keys " + String.join(", ", keys) + (t == null ? " (the file is empty)" : ""));
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String key = p.currentName();
        int line = line(p);
        if (!keys.contains(key)) {
          throw new PolicyRefused(origin, line, Optional.empty(), "unknown key '" + key + "' (allowed: "
              + String.join(", ", keys) + ")");
        }
        lines.put(key, line);
        if (p.nextToken() == JsonToken.START_ARRAY) {
          List<Item> items = new ArrayList<>();
          while (p.nextToken() != JsonToken.END_ARRAY) {
            int itemLine = line(p);
            items.add(new Item(YAML.readTree(p), itemLine));
          }
          lists.put(key, items);
          values.put(key, YAML.valueToTree(items.stream().map(Item::node).toList()));
        } else {
          values.put(key, YAML.readTree(p));
        }
      }
    } catch (JsonProcessingException e) {
      int line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
      throw new PolicyRefused(origin, Math.max(line, 0), Optional.empty(), "not valid YAML: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new PolicyRefused(origin, 0, Optional.empty(), "cannot be read: " + e.getMessage());
    }
    return new Document(values, lines, lists);
  }

  /**
   * The text of {@code file}.
   *
   * @throws PolicyRefused when it cannot be read
   */
  static String readFile(java.nio.file.Path file) {
    try {
      return java.nio.file.Files.readString(file, java.nio.charset.StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw PolicyRefused.unreadable(file.toString(), e);
    }
  }

  private static int line(JsonParser p) {
    return p.currentTokenLocation().getLineNr();
  }
}
