package dev.omnigraph.schema;

import dev.omnigraph.api.TableKey;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.omnigraph.schema.SchemaIr.TableEntry;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The IR's JSON layout, written and read by hand: the field order and the presence rules are part
 * of the identity, so they are spelled out here rather than left to data binding.
 */
final class IrJson {

  private IrJson() {}

  private static final ObjectMapper MAPPER = JsonMapper.builder()
      .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
      .build();
  private static final JsonNodeFactory F = JsonNodeFactory.instance;
  // Jackson's default indenter uses the platform line separator; the IR must not depend on the OS.
  private static final DefaultPrettyPrinter PRETTY = new DefaultPrettyPrinter()
      .withObjectIndenter(new DefaultIndenter("  ", "\n"))
      .withArrayIndenter(DefaultPrettyPrinter.FixedSpaceIndenter.instance);

  // ---- write -------------------------------------------------------------------------------

  static String write(SchemaIr ir) {
    try {
      return MAPPER.writeValueAsString(tree(ir));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("writing an in-memory tree cannot fail", e);
    }
  }

  static String pretty(String canonical) {
    try {
      return MAPPER.writer(PRETTY).writeValueAsString(MAPPER.readTree(canonical)) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("canonical IR is valid JSON", e);
    }
  }

  private static ObjectNode tree(SchemaIr ir) {
    Catalog c = ir.catalog();
    ObjectNode root = F.objectNode();
    root.put("ir_version", SchemaIr.IR_VERSION);
    ArrayNode interfaces = root.putArray("interfaces");
    for (InterfaceType i : c.interfaces().values()) {
      ObjectNode o = interfaces.addObject();
      o.put("name", i.name());
      o.set("properties", properties(i.properties()));
      o.set("key", strings(i.key()));
      o.set("unique", lists(i.uniques()));
      o.set("index", lists(i.indexes()));
      o.set("annotations", annotations(i.annotations()));
    }
    ArrayNode nodes = root.putArray("nodes");
    for (NodeType n : c.nodes().values()) {
      ObjectNode o = nodes.addObject();
      o.put("name", n.name());
      table(o, ir.tableMap().get(n.tableKey()));
      o.set("implements", strings(n.interfaces()));
      o.set("properties", properties(n.properties()));
      propertyIds(o, ir, n.tableKey());
      o.set("key", strings(n.key()));
      o.set("unique", lists(n.uniques()));
      o.set("index", lists(n.indexes()));
      ArrayNode ranges = o.putArray("range");
      for (RangeConstraint r : n.ranges()) {
        ObjectNode ro = ranges.addObject();
        ro.put("property", r.property());
        // Strings, not JSON numbers: exact decimals with one spelling, no float formatting involved.
        ro.put("min", r.min() == null ? null : r.min().toPlainString());
        ro.put("max", r.max() == null ? null : r.max().toPlainString());
      }
      ArrayNode checks = o.putArray("check");
      for (CheckConstraint k : n.checks()) {
        ObjectNode ko = checks.addObject();
        ko.put("property", k.property());
        ko.put("pattern", k.pattern());
      }
      o.set("annotations", annotations(n.annotations()));
    }
    ArrayNode edges = root.putArray("edges");
    for (EdgeType e : c.edges().values()) {
      ObjectNode o = edges.addObject();
      o.put("name", e.name());
      table(o, ir.tableMap().get(e.tableKey()));
      o.put("from", e.from());
      o.put("to", e.to());
      ObjectNode card = o.putObject("cardinality");
      card.put("min", e.cardinality().min());
      card.put("max", e.cardinality().max());
      o.set("properties", properties(e.properties()));
      propertyIds(o, ir, e.tableKey());
      o.set("unique", lists(e.uniques()));
      o.set("index", lists(e.indexes()));
      o.set("annotations", annotations(e.annotations()));
    }
    ArrayNode retired = root.putArray("retired_tables");
    for (TableEntry t : ir.retiredMap().values()) {
      ObjectNode o = retired.addObject();
      o.put("table_key", t.tableKey().toString());
      o.put("stable_table_id", t.stableTableId());
      o.put("table_incarnation_id", t.incarnationId());
    }
    if (!ir.legacyIds()) {
      root.put("next_property_id", ir.nextPropertyId());
    }
    return root;
  }

  /** {@code "property_ids": {name: id}} (absent from a legacy-form IR, whose ids are derived). */
  private static void propertyIds(ObjectNode o, SchemaIr ir, TableKey tableKey) {
    if (ir.legacyIds()) {
      return;
    }
    ObjectNode ids = o.putObject("property_ids");
    ir.propertyIdMap().get(tableKey).forEach(ids::put);
  }

  private static void table(ObjectNode o, TableEntry t) {
    o.put("table_key", t.tableKey().toString());
    o.put("stable_table_id", t.stableTableId());
    o.put("table_incarnation_id", t.incarnationId());
    o.put("dataset_path", t.datasetPath());
  }

  private static ArrayNode properties(List<Property> props) {
    ArrayNode a = F.arrayNode();
    for (Property p : props) {
      ObjectNode o = a.addObject();
      o.put("name", p.name());
      ObjectNode type = o.putObject("type");
      PropertyType t = p.type();
      type.put("kind", t.kind().spelling());
      type.put("list", t.list());
      type.put("nullable", t.nullable());
      // Present only where meaningful, so the common scalar stays small.
      if (t.kind() == ScalarKind.ENUM) {
        type.set("enum_values", strings(t.enumValues()));
      }
      if (t.kind() == ScalarKind.VECTOR) {
        type.put("vector_dim", t.vectorDim());
      }
      o.put("display", t.display());
      o.set("annotations", annotations(p.annotations()));
    }
    return a;
  }

  private static ArrayNode annotations(List<Annotation> annotations) {
    ArrayNode a = F.arrayNode();
    for (Annotation an : annotations) {
      ObjectNode o = a.addObject();
      o.put("name", an.name());
      o.set("args", strings(an.args()));
      ObjectNode kw = o.putObject("kwargs");
      an.kwargs().forEach(kw::put);
    }
    return a;
  }

  private static ArrayNode strings(List<String> values) {
    ArrayNode a = F.arrayNode();
    values.forEach(a::add);
    return a;
  }

  private static ArrayNode lists(List<List<String>> lists) {
    ArrayNode a = F.arrayNode();
    lists.forEach(l -> a.add(strings(l)));
    return a;
  }

  // ---- read --------------------------------------------------------------------------------

  static SchemaIr read(String text) {
    JsonNode root;
    try {
      root = MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      throw invalid("not valid JSON: " + e.getOriginalMessage());
    }
    if (root == null || !root.isObject()) {
      throw invalid("the document must be a JSON object");
    }
    Reader r = new Reader();
    SchemaIr ir;
    try {
      ir = r.root(root);
    } catch (IllegalArgumentException e) {
      throw e.getMessage().startsWith("invalid schema IR") ? e : invalid(r.path() + ": " + e.getMessage());
    }
    JsonNode canonical;
    try {
      canonical = MAPPER.readTree(ir.toJson());
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
    if (!canonical.equals(root)) {
      throw invalid("the document is not in canonical form (types, properties and constraints must be"
          + " sorted, and derived fields such as dataset_path must match)");
    }
    return ir;
  }

  /** Reads with a path stack so an error names the field: {@code nodes[2].properties[0].type}. */
  private static final class Reader {
    private final List<String> path = new ArrayList<>();

    String path() {
      return "$" + String.join("", path);
    }

    SchemaIr root(JsonNode root) {
      boolean withIds = root.has("next_property_id");
      fieldsOptional(root, withIds ? List.of("next_property_id") : List.of(), "ir_version", "interfaces", "nodes",
          "edges", "retired_tables");
      Map<TableKey, Map<String, Long>> propertyIds = new HashMap<>();
      int version = in(".ir_version", () -> intValue(root.get("ir_version")));
      if (version != SchemaIr.IR_VERSION) {
        throw invalid("unsupported ir_version " + version + " (this build reads " + SchemaIr.IR_VERSION + ")");
      }
      Map<String, InterfaceType> interfaces = new TreeMap<>();
      Map<String, NodeType> nodes = new TreeMap<>();
      Map<String, EdgeType> edges = new TreeMap<>();
      Map<TableKey, TableEntry> tables = new HashMap<>();
      Map<TableKey, TableEntry> retired = new HashMap<>();
      each(root, "interfaces", o -> {
        fields(o, "name", "properties", "key", "unique", "index", "annotations");
        InterfaceType t = new InterfaceType(text(o, "name"), props(o), stringList(o, "key"), nested(o, "unique"),
            nested(o, "index"), annos(o));
        interfaces.put(t.name(), t);
      });
      each(root, "nodes", o -> {
        fieldsOptional(o, withIds ? List.of("property_ids") : List.of(), "name", "table_key", "stable_table_id",
            "table_incarnation_id", "dataset_path", "implements", "properties", "key", "unique", "index", "range",
            "check", "annotations");
        if (withIds) {
          propertyIds.put(TableKey.parse(text(o, "table_key")), ids(o.get("property_ids")));
        }
        List<RangeConstraint> ranges = new ArrayList<>();
        each(o, "range", ro -> {
          fields(ro, "property", "min", "max");
          ranges.add(new RangeConstraint(text(ro, "property"), decimal(ro, "min"), decimal(ro, "max")));
        });
        List<CheckConstraint> checks = new ArrayList<>();
        each(o, "check", ko -> {
          fields(ko, "property", "pattern");
          checks.add(new CheckConstraint(text(ko, "property"), text(ko, "pattern")));
        });
        NodeType n = new NodeType(text(o, "name"), stringList(o, "implements"), props(o), stringList(o, "key"),
            nested(o, "unique"), nested(o, "index"), ranges, checks, annos(o));
        nodes.put(n.name(), n);
        TableEntry t = entry(o);
        tables.put(t.tableKey(), t);
      });
      each(root, "edges", o -> {
        fieldsOptional(o, withIds ? List.of("property_ids") : List.of(), "name", "table_key", "stable_table_id",
            "table_incarnation_id", "dataset_path", "from", "to", "cardinality", "properties", "unique", "index",
            "annotations");
        if (withIds) {
          propertyIds.put(TableKey.parse(text(o, "table_key")), ids(o.get("property_ids")));
        }
        JsonNode card = o.get("cardinality");
        Cardinality cardinality = in(".cardinality", () -> {
          fields(card, "min", "max");
          JsonNode max = card.get("max");
          return new Cardinality(longValue(card.get("min")), max.isNull() ? null : longValue(max));
        });
        EdgeType e = new EdgeType(text(o, "name"), text(o, "from"), text(o, "to"), cardinality, props(o),
            nested(o, "unique"), nested(o, "index"), annos(o));
        edges.put(e.name(), e);
        TableEntry t = entry(o);
        tables.put(t.tableKey(), t);
      });
      each(root, "retired_tables", o -> {
        fields(o, "table_key", "stable_table_id", "table_incarnation_id");
        TableEntry t = new TableEntry(TableKey.parse(text(o, "table_key")), longValue(o.get("stable_table_id")),
            longValue(o.get("table_incarnation_id")));
        retired.put(t.tableKey(), t);
      });
      path.clear();
      Catalog catalog = new Catalog(new TreeMap<>(nodes), new TreeMap<>(edges), new TreeMap<>(interfaces));
      if (!withIds) {
        return new SchemaIr(catalog, tables, retired);
      }
      return new SchemaIr(catalog, tables, retired, propertyIds, longValue(root.get("next_property_id")), false);
    }

    private Map<String, Long> ids(JsonNode o) {
      if (o == null || !o.isObject()) {
        throw new IllegalArgumentException("property_ids must be an object");
      }
      Map<String, Long> out = new TreeMap<>();
      o.fields().forEachRemaining(e -> out.put(e.getKey(), longValue(e.getValue())));
      return out;
    }

    private void fieldsOptional(JsonNode o, List<String> extra, String... names) {
      List<String> all = new ArrayList<>(List.of(names));
      all.addAll(extra);
      fields(o, all.toArray(String[]::new));
    }

    private TableEntry entry(JsonNode o) {
      return new TableEntry(TableKey.parse(text(o, "table_key")), longValue(o.get("stable_table_id")),
          longValue(o.get("table_incarnation_id")));
    }

    private List<Property> props(JsonNode owner) {
      List<Property> out = new ArrayList<>();
      each(owner, "properties", o -> {
        fields(o, "name", "type", "display", "annotations");
        JsonNode t = o.get("type");
        PropertyType type = in(".type", () -> {
          String kindName = text(t, "kind");
          ScalarKind kind = null;
          for (ScalarKind k : ScalarKind.values()) {
            if (k.spelling().equals(kindName)) {
              kind = k;
            }
          }
          if (kind == null) {
            throw new IllegalArgumentException("unknown kind '" + kindName + "'");
          }
          List<String> expected = new ArrayList<>(List.of("kind", "list", "nullable"));
          if (kind == ScalarKind.ENUM) {
            expected.add("enum_values");
          }
          if (kind == ScalarKind.VECTOR) {
            expected.add("vector_dim");
          }
          fields(t, expected.toArray(String[]::new));
          return new PropertyType(kind, bool(t, "list"), bool(t, "nullable"),
              kind == ScalarKind.ENUM ? stringList(t, "enum_values") : List.of(),
              kind == ScalarKind.VECTOR ? intValue(t.get("vector_dim")) : 0);
        });
        out.add(new Property(text(o, "name"), type, annos(o)));
      });
      return out;
    }

    private List<Annotation> annos(JsonNode owner) {
      List<Annotation> out = new ArrayList<>();
      each(owner, "annotations", o -> {
        fields(o, "name", "args", "kwargs");
        JsonNode kw = o.get("kwargs");
        Map<String, String> kwargs = new TreeMap<>();
        in(".kwargs", () -> {
          if (!kw.isObject()) {
            throw new IllegalArgumentException("expected an object");
          }
          kw.properties().forEach(e -> kwargs.put(e.getKey(), stringValue(e.getValue())));
          return null;
        });
        out.add(new Annotation(text(o, "name"), stringList(o, "args"), kwargs));
      });
      return out;
    }

    private void each(JsonNode owner, String field, java.util.function.Consumer<JsonNode> body) {
      JsonNode array = owner.get(field);
      in("." + field, () -> {
        if (array == null || !array.isArray()) {
          throw new IllegalArgumentException("expected an array");
        }
        return null;
      });
      for (int i = 0; i < array.size(); i++) {
        JsonNode element = array.get(i);
        in("." + field + "[" + i + "]", () -> {
          if (!element.isObject()) {
            throw new IllegalArgumentException("expected an object");
          }
          body.accept(element);
          return null;
        });
      }
    }

    private <T> T in(String segment, java.util.function.Supplier<T> body) {
      path.add(segment);
      T value = body.get();
      path.remove(path.size() - 1);
      return value;
    }

    private List<List<String>> nested(JsonNode o, String field) {
      return in("." + field, () -> {
        JsonNode a = o.get(field);
        if (!a.isArray()) {
          throw new IllegalArgumentException("expected an array of arrays");
        }
        List<List<String>> out = new ArrayList<>();
        for (JsonNode inner : a) {
          out.add(strings(inner));
        }
        return out;
      });
    }

    private List<String> stringList(JsonNode o, String field) {
      return in("." + field, () -> strings(o.get(field)));
    }

    private String text(JsonNode o, String field) {
      return in("." + field, () -> stringValue(o.get(field)));
    }

    private boolean bool(JsonNode o, String field) {
      return in("." + field, () -> {
        JsonNode v = o.get(field);
        if (!v.isBoolean()) {
          throw new IllegalArgumentException("expected true or false");
        }
        return v.booleanValue();
      });
    }

    private BigDecimal decimal(JsonNode o, String field) {
      return in("." + field, () -> {
        JsonNode v = o.get(field);
        if (v.isNull()) {
          return null;
        }
        try {
          return new BigDecimal(stringValue(v));
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException("expected a decimal string or null");
        }
      });
    }

    /** Rejects both missing and unexpected fields: the layout is a contract, not a suggestion. */
    private void fields(JsonNode o, String... names) {
      if (o == null || !o.isObject()) {
        throw new IllegalArgumentException("expected an object");
      }
      Set<String> expected = Set.of(names);
      for (String n : names) {
        if (!o.has(n)) {
          throw new IllegalArgumentException("missing field '" + n + "'");
        }
      }
      Set<String> seen = new HashSet<>();
      for (Iterator<String> it = o.fieldNames(); it.hasNext(); ) {
        seen.add(it.next());
      }
      seen.removeAll(expected);
      if (!seen.isEmpty()) {
        throw new IllegalArgumentException("unexpected field '" + seen.iterator().next() + "'");
      }
    }
  }

  private static List<String> strings(JsonNode a) {
    if (a == null || !a.isArray()) {
      throw new IllegalArgumentException("expected an array of strings");
    }
    List<String> out = new ArrayList<>();
    for (JsonNode v : a) {
      out.add(stringValue(v));
    }
    return out;
  }

  private static String stringValue(JsonNode v) {
    if (v == null || !v.isTextual()) {
      throw new IllegalArgumentException("expected a string");
    }
    return v.textValue();
  }

  private static long longValue(JsonNode v) {
    if (v == null || !v.isIntegralNumber() || !v.canConvertToLong()) {
      throw new IllegalArgumentException("expected an integer");
    }
    return v.longValue();
  }

  private static int intValue(JsonNode v) {
    if (v == null || !v.isIntegralNumber() || !v.canConvertToInt()) {
      throw new IllegalArgumentException("expected an integer");
    }
    return v.intValue();
  }

  private static IllegalArgumentException invalid(String detail) {
    return new IllegalArgumentException("invalid schema IR: " + detail);
  }

  // ---- consistency -------------------------------------------------------------------------

  /**
   * What a parsed catalog guarantees by construction but a JSON document might not: every table
   * has exactly one entry, ids are unique, and every constraint names a property that can carry it.
   */
  static void validate(SchemaIr ir) {
    Catalog c = ir.catalog();
    Set<TableKey> keys = new HashSet<>(c.tableKeys());
    if (!keys.equals(ir.tableMap().keySet())) {
      throw invalid("table entries " + ir.tableMap().keySet() + " do not match the types " + keys);
    }
    Set<Long> stableIds = new HashSet<>();
    for (TableEntry t : ir.tableMap().values()) {
      if (!stableIds.add(t.stableTableId())) {
        throw invalid("stable table id " + t.stableTableId() + " is used twice");
      }
    }
    for (TableEntry t : ir.retiredMap().values()) {
      if (keys.contains(t.tableKey())) {
        throw invalid(t.tableKey() + " is both live and retired");
      }
      if (!stableIds.add(t.stableTableId())) {
        throw invalid("stable table id " + t.stableTableId() + " is used twice");
      }
    }
    Set<String> folded = new HashSet<>();
    for (EdgeType e : c.edges().values()) {
      if (!folded.add(Catalog.foldEdgeName(e.name()))) {
        throw invalid("edge names " + e.name() + " collide ignoring case");
      }
      Set<String> columns = names(e.properties());
      columns.add("src");
      columns.add("dst");
      requireColumns("edge " + e.name(), columns, e.uniques(), e.indexes());
    }
    Set<String> typeNames = new HashSet<>(c.interfaces().keySet());
    for (InterfaceType i : c.interfaces().values()) {
      requireColumns("interface " + i.name(), names(i.properties()), i.uniques(), i.indexes(), List.of(i.key()));
    }
    for (NodeType n : c.nodes().values()) {
      if (!typeNames.add(n.name()) || c.edges().containsKey(n.name())) {
        throw invalid("type name " + n.name() + " is declared twice");
      }
      for (String i : n.interfaces()) {
        if (!c.interfaces().containsKey(i)) {
          throw invalid("node " + n.name() + " implements unknown interface " + i);
        }
      }
      Set<String> columns = names(n.properties());
      requireColumns("node " + n.name(), columns, n.uniques(), n.indexes(), List.of(n.key()));
      for (String k : n.key()) {
        PropertyType t = n.property(k).orElseThrow().type();
        if (t.nullable() || !t.isSingleScalar()) {
          throw invalid("node " + n.name() + " key property " + k + " is " + t.display());
        }
      }
      for (RangeConstraint r : n.ranges()) {
        requireColumns("node " + n.name(), columns, List.of(List.of(r.property())));
      }
      for (CheckConstraint k : n.checks()) {
        requireColumns("node " + n.name(), columns, List.of(List.of(k.property())));
      }
    }
  }

  private static Set<String> names(List<Property> props) {
    Set<String> out = new HashSet<>();
    for (Property p : props) {
      if (!out.add(p.name())) {
        throw invalid("property " + p.name() + " is declared twice");
      }
    }
    return out;
  }

  @SafeVarargs
  private static void requireColumns(String owner, Set<String> columns, List<List<String>>... groups) {
    for (List<List<String>> group : groups) {
      for (List<String> list : group) {
        for (String column : list) {
          if (!columns.contains(column)) {
            throw invalid(owner + " constrains unknown property " + column);
          }
        }
      }
    }
  }

  /** The property ids of {@code ir} name exactly each live table's properties, uniquely, below the allocator. */
  static void validatePropertyIds(SchemaIr ir) {
    Catalog c = ir.catalog();
    if (!ir.propertyIdMap().keySet().equals(ir.tableMap().keySet())) {
      throw invalid("property ids are given for " + ir.propertyIdMap().keySet() + ", not the tables "
          + ir.tableMap().keySet());
    }
    Set<Long> all = new HashSet<>(); // one graph-wide allocator: an id names one property of one table
    for (Map.Entry<TableKey, java.util.SortedMap<String, Long>> e : ir.propertyIdMap().entrySet()) {
      all.addAll(e.getValue().values());
    }
    if (all.size() != ir.propertyIdMap().values().stream().mapToInt(Map::size).sum()) {
      throw invalid("duplicate property ids across tables");
    }
    for (Map.Entry<TableKey, java.util.SortedMap<String, Long>> e : ir.propertyIdMap().entrySet()) {
      Set<String> declared = names(SchemaIr.propertiesOf(c, e.getKey()));
      if (!declared.equals(e.getValue().keySet())) {
        throw invalid(e.getKey() + " has property ids for " + e.getValue().keySet() + ", not its properties "
            + declared);
      }
      if (new HashSet<>(e.getValue().values()).size() != e.getValue().size()
          || e.getValue().values().stream().anyMatch(id -> id < 1 || id >= ir.nextPropertyId())) {
        throw invalid(e.getKey() + " has duplicate property ids or ids outside 1.." + (ir.nextPropertyId() - 1));
      }
    }
  }
}
