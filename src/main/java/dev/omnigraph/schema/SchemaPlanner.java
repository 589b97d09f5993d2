package dev.omnigraph.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.omnigraph.api.SchemaStep;
import dev.omnigraph.api.SchemaStep.DropMode;
import dev.omnigraph.api.SchemaStep.TypeKind;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Schema migration planning (docs/schema-evolution.md): the ordered, typed steps that take the
 * accepted catalog to a desired one. Pure and deterministic: the same two schemas always give the
 * same steps in the same order (interfaces, then node types, then edge types, each in name order;
 * within a type: its rename, its metadata, its properties, its constraints; drops of what the
 * desired schema no longer declares after the type's other steps).
 *
 * <p>Renames are declared, never guessed: {@code node Human @rename_from("Person")} and
 * {@code years: I32? @rename_from("age")}, the reference's spelling. A hint naming something the
 * accepted schema lacks is ignored when the declaration already has its new name there (the plan
 * of an already-applied rename is empty), and unsupported otherwise.
 *
 * <p>What schema apply supports follows the reference's "schema migration v1" rules, widened where
 * the issue asks for it: a constraint added to existing data ({@code @unique}, {@code @index},
 * {@code @range}, {@code @check}) is planned and checked against the rows at apply time. Unsupported
 * (the entity and the reason, and the plan as a whole refuses): changing a property's type or
 * nullability (a pure enum widening excepted), adding a required property (no backfill), changing
 * a key, an edge's endpoints or cardinality, a node's interfaces, removing a constraint, renaming
 * or removing an interface.
 */
public final class SchemaPlanner {

  /** The annotation that declares a rename; not metadata, never part of an accepted schema. */
  public static final String RENAME_FROM = "rename_from";

  private final Catalog accepted;
  private final Catalog desired;
  private final List<SchemaStep> steps = new ArrayList<>();
  /** Accepted node name to desired node name, for endpoint comparison across a node rename. */
  private final Map<String, String> nodeRenames = new HashMap<>();

  private SchemaPlanner(Catalog accepted, Catalog desired) {
    this.accepted = accepted;
    this.desired = desired;
  }

  /** The steps from {@code accepted} to {@code desired}, in apply order. */
  public static List<SchemaStep> plan(Catalog accepted, Catalog desired) {
    SchemaPlanner planner = new SchemaPlanner(accepted, desired);
    planner.interfaces();
    planner.nodes();
    planner.edges();
    if (planner.steps.isEmpty() && !withoutRenameHints(accepted).equals(withoutRenameHints(desired))) {
      // A difference none of the rules above classified must never pass as "no change".
      planner.steps.add(new SchemaStep.UnsupportedChange("schema",
          "the schemas differ in a way schema migration does not classify"));
    }
    return List.copyOf(planner.steps);
  }

  // --- interfaces ------------------------------------------------------------------------------

  private void interfaces() {
    for (InterfaceType d : desired.interfaces().values()) {
      Optional<String> hint = renameHint(d.annotations());
      InterfaceType existing = accepted.interfaces().get(d.name());
      if (hint.isPresent() && !hint.get().equals(d.name()) && accepted.interfaces().containsKey(hint.get())) {
        unsupported("interface:" + d.name(), "renaming interfaces is not supported");
        continue;
      }
      if (existing == null) {
        steps.add(new SchemaStep.AddType(TypeKind.INTERFACE, d.name()));
        continue;
      }
      typeMetadata(TypeKind.INTERFACE, d.name(), existing.annotations(), d.annotations());
      if (!existing.key().equals(d.key())) {
        unsupported("interface:" + d.name(), "changing the key of interface '" + d.name() + "' is not supported");
      }
      properties(TypeKind.INTERFACE, d.name(), existing.properties(), d.properties());
    }
    for (InterfaceType a : accepted.interfaces().values()) {
      if (!desired.interfaces().containsKey(a.name())) {
        unsupported("interface:" + a.name(), "removing interface '" + a.name() + "' is not supported");
      }
    }
  }

  // --- node types ------------------------------------------------------------------------------

  private void nodes() {
    Set<String> consumed = new HashSet<>();
    Map<String, NodeType> matched = new TreeMap<>();
    for (NodeType d : desired.nodes().values()) {
      Optional<String> from = matchType(TypeKind.NODE, d.name(), d.annotations(), accepted.nodes().keySet(),
          desired.nodes().keySet());
      if (from.isEmpty()) {
        continue;
      }
      consumed.add(from.get());
      nodeRenames.put(from.get(), d.name());
      matched.put(d.name(), accepted.nodes().get(from.get()));
    }
    for (NodeType d : desired.nodes().values()) {
      NodeType existing = matched.get(d.name());
      if (existing == null) {
        continue;
      }
      String entity = "node:" + d.name();
      if (!existing.interfaces().equals(d.interfaces())) {
        unsupported(entity, "changing the interfaces node '" + d.name() + "' implements is not supported");
      }
      typeMetadata(TypeKind.NODE, d.name(), existing.annotations(), d.annotations());
      Map<String, String> renamed = properties(TypeKind.NODE, d.name(), existing.properties(), d.properties());
      Function<String, String> rename = p -> renamed.getOrDefault(p, p);
      if (!existing.key().stream().map(rename).toList().equals(d.key())) {
        unsupported(entity, "changing the key of node '" + d.name() + "' from @key(" + String.join(", ", existing.key())
            + ") to @key(" + String.join(", ", d.key()) + ") would change every id; it is not supported");
      }
      constraints(TypeKind.NODE, d.name(), Constraints.of(existing, rename), Constraints.of(d, Function.identity()));
    }
    for (NodeType a : accepted.nodes().values()) {
      if (!consumed.contains(a.name())) {
        steps.add(new SchemaStep.DropType(TypeKind.NODE, a.name(), DropMode.SOFT));
      }
    }
  }

  // --- edge types ------------------------------------------------------------------------------

  private void edges() {
    Set<String> consumed = new HashSet<>();
    for (EdgeType d : desired.edges().values()) {
      Optional<String> from = matchType(TypeKind.EDGE, d.name(), d.annotations(), accepted.edges().keySet(),
          desired.edges().keySet());
      if (from.isEmpty()) {
        continue;
      }
      consumed.add(from.get());
      EdgeType existing = accepted.edges().get(from.get());
      String entity = "edge:" + d.name();
      String oldFrom = nodeRenames.getOrDefault(existing.from(), existing.from());
      String oldTo = nodeRenames.getOrDefault(existing.to(), existing.to());
      if (!oldFrom.equals(d.from()) || !oldTo.equals(d.to())) {
        unsupported(entity, "changing the endpoints of edge '" + d.name() + "' from " + existing.from() + " -> "
            + existing.to() + " to " + d.from() + " -> " + d.to() + " is not supported");
      }
      if (!existing.cardinality().equals(d.cardinality())) {
        unsupported(entity, "changing the cardinality of edge '" + d.name() + "' from @card(" + existing.cardinality()
            + ") to @card(" + d.cardinality() + ") is not supported");
      }
      typeMetadata(TypeKind.EDGE, d.name(), existing.annotations(), d.annotations());
      Map<String, String> renamed = properties(TypeKind.EDGE, d.name(), existing.properties(), d.properties());
      Function<String, String> rename = p -> renamed.getOrDefault(p, p);
      constraints(TypeKind.EDGE, d.name(), Constraints.of(existing, rename), Constraints.of(d, Function.identity()));
    }
    for (EdgeType a : accepted.edges().values()) {
      if (!consumed.contains(a.name())) {
        steps.add(new SchemaStep.DropType(TypeKind.EDGE, a.name(), DropMode.SOFT));
      }
    }
  }

  /**
   * The accepted name a desired type continues, adding its {@code add_type} or {@code rename_type}
   * step; empty when the type is new (or its rename hint cannot be honoured).
   */
  private Optional<String> matchType(TypeKind kind, String name, List<Annotation> annotations,
      Set<String> acceptedNames, Set<String> desiredNames) {
    Optional<String> hint = renameHint(annotations).filter(h -> !h.equals(name));
    if (hint.isPresent() && acceptedNames.contains(hint.get())) {
      if (desiredNames.contains(hint.get())) {
        unsupported(kind.wire() + ":" + name, kind.wire() + " '" + name + "' declares @rename_from(\"" + hint.get()
            + "\") but the desired schema still declares '" + hint.get() + "'");
        return Optional.empty();
      }
      if (acceptedNames.contains(name)) {
        unsupported(kind.wire() + ":" + name, kind.wire() + " '" + name + "' declares @rename_from(\"" + hint.get()
            + "\") but '" + name + "' already exists");
        return Optional.empty();
      }
      steps.add(new SchemaStep.RenameType(kind, hint.get(), name));
      return hint;
    }
    if (acceptedNames.contains(name)) {
      return Optional.of(name);
    }
    if (hint.isPresent()) {
      unsupported(kind.wire() + ":" + name, kind.wire() + " '" + name + "' declares @rename_from(\"" + hint.get()
          + "\") but the accepted schema has no " + kind.wire() + " type of that name");
      return Optional.empty();
    }
    steps.add(new SchemaStep.AddType(kind, name));
    return Optional.empty();
  }

  // --- properties ------------------------------------------------------------------------------

  /**
   * Plans one type's properties; returns accepted name to desired name for every renamed property,
   * so that constraints can be compared across the rename.
   */
  private Map<String, String> properties(TypeKind kind, String typeName, List<Property> accepted,
      List<Property> desired) {
    Map<String, Property> byName = new TreeMap<>();
    accepted.forEach(p -> byName.put(p.name(), p));
    Set<String> desiredNames = new HashSet<>();
    desired.forEach(p -> desiredNames.add(p.name()));
    Map<String, String> renamed = new TreeMap<>();
    Set<String> consumed = new HashSet<>();
    for (Property d : desired) {
      String entity = kind.wire() + ":" + typeName + "." + d.name();
      Optional<String> hint = renameHint(d.annotations()).filter(h -> !h.equals(d.name()));
      Property existing;
      if (hint.isPresent() && byName.containsKey(hint.get())) {
        if (desiredNames.contains(hint.get()) || byName.containsKey(d.name())) {
          unsupported(entity, "property '" + typeName + "." + d.name() + "' declares @rename_from(\"" + hint.get()
              + "\") but both names are declared");
          continue;
        }
        existing = byName.get(hint.get());
        steps.add(new SchemaStep.RenameProperty(kind, typeName, hint.get(), d.name()));
        renamed.put(hint.get(), d.name());
      } else if (byName.containsKey(d.name())) {
        existing = byName.get(d.name());
      } else if (hint.isPresent()) {
        unsupported(entity, "property '" + typeName + "." + d.name() + "' declares @rename_from(\"" + hint.get()
            + "\") but '" + typeName + "' has no accepted property of that name");
        continue;
      } else {
        if (d.type().nullable()) {
          steps.add(new SchemaStep.AddProperty(kind, typeName, d.name(), propType(d.type())));
        } else {
          unsupported(entity, "adding required property '" + typeName + "." + d.name() + "' (" + d.type().display()
              + ") needs a value for every existing row; declare it nullable (" + d.type().display() + "?)");
        }
        continue;
      }
      consumed.add(existing.name());
      type(kind, typeName, d.name(), existing.type(), d.type());
      propertyMetadata(kind, typeName, d.name(), existing.annotations(), d.annotations());
    }
    for (Property a : accepted) {
      if (!consumed.contains(a.name()) && !desiredNames.contains(a.name())) {
        // A dropped key property shows up as a key change (unsupported) too; the drop stays listed.
        steps.add(new SchemaStep.DropProperty(kind, typeName, a.name(), DropMode.SOFT));
      }
    }
    return renamed;
  }

  private void type(TypeKind kind, String typeName, String property, PropertyType from, PropertyType to) {
    if (from.equals(to)) {
      return;
    }
    String entity = kind.wire() + ":" + typeName + "." + property;
    if (from.kind() == ScalarKind.ENUM && to.kind() == ScalarKind.ENUM && from.list() == to.list()
        && from.nullable() == to.nullable()) {
      Set<String> before = Set.copyOf(from.enumValues());
      if (to.enumValues().containsAll(before)) {
        List<String> added = to.enumValues().stream().filter(v -> !before.contains(v)).toList();
        if (!added.isEmpty()) {
          steps.add(new SchemaStep.ExtendEnum(kind, typeName, property, added));
        }
        return;
      }
      unsupported(entity, "removing or renaming variants of enum '" + typeName + "." + property + "' ("
          + from.display() + " to " + to.display() + ") is not supported; only adding variants is");
      return;
    }
    unsupported(entity, "changing the type of '" + typeName + "." + property + "' from " + from.display() + " to "
        + to.display() + " is not supported");
  }

  // --- constraints -----------------------------------------------------------------------------

  /** A type's constraints other than its key, in .pg spelling, with property names renamed. */
  private record Constraints(Map<String, JsonNode> byDisplay) {

    static Constraints of(NodeType t, Function<String, String> rename) {
      Map<String, JsonNode> out = new TreeMap<>();
      t.uniques().forEach(u -> put(out, "Unique", u, rename));
      t.indexes().forEach(i -> put(out, "Index", i, rename));
      for (RangeConstraint r : t.ranges()) {
        ObjectNode range = JsonNodeFactory.instance.objectNode();
        String property = rename.apply(r.property());
        range.put("property", property);
        range.set("min", bound(r.min()));
        range.set("max", bound(r.max()));
        ObjectNode tagged = JsonNodeFactory.instance.objectNode();
        tagged.set("Range", range);
        out.put("@range(" + property + ", " + (r.min() == null ? "" : r.min().toPlainString()) + ".."
            + (r.max() == null ? "" : r.max().toPlainString()) + ")", tagged);
      }
      for (CheckConstraint c : t.checks()) {
        ObjectNode check = JsonNodeFactory.instance.objectNode();
        String property = rename.apply(c.property());
        check.put("property", property);
        check.put("pattern", c.pattern());
        ObjectNode tagged = JsonNodeFactory.instance.objectNode();
        tagged.set("Check", check);
        out.put("@check(" + property + ", \"" + c.pattern() + "\")", tagged);
      }
      return new Constraints(out);
    }

    static Constraints of(EdgeType t, Function<String, String> rename) {
      Map<String, JsonNode> out = new TreeMap<>();
      t.uniques().forEach(u -> put(out, "Unique", u, rename));
      t.indexes().forEach(i -> put(out, "Index", i, rename));
      return new Constraints(out);
    }

    private static void put(Map<String, JsonNode> out, String tag, List<String> columns,
        Function<String, String> rename) {
      List<String> renamed = columns.stream().map(rename).toList();
      ObjectNode tagged = JsonNodeFactory.instance.objectNode();
      var array = tagged.putArray(tag);
      renamed.forEach(array::add);
      out.put("@" + tag.toLowerCase(java.util.Locale.ROOT) + "(" + String.join(", ", renamed) + ")", tagged);
    }

    /** The reference's {@code ConstraintBound}: {@code {"Integer": n}} or {@code {"Float": x}}. */
    private static JsonNode bound(BigDecimal value) {
      if (value == null) {
        return JsonNodeFactory.instance.nullNode();
      }
      ObjectNode b = JsonNodeFactory.instance.objectNode();
      if (value.scale() <= 0 && value.abs().compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) <= 0) {
        b.put("Integer", value.longValueExact());
      } else {
        b.put("Float", value.doubleValue());
      }
      return b;
    }
  }

  private void constraints(TypeKind kind, String typeName, Constraints before, Constraints after) {
    Set<String> removed = new LinkedHashSet<>(before.byDisplay().keySet());
    removed.removeAll(after.byDisplay().keySet());
    if (!removed.isEmpty()) {
      unsupported(kind.wire() + ":" + typeName, "removing constraints " + String.join(", ", removed) + " from '"
          + typeName + "' is not supported");
    }
    after.byDisplay().forEach((display, constraint) -> {
      if (!before.byDisplay().containsKey(display)) {
        steps.add(new SchemaStep.AddConstraint(kind, typeName, constraint, display));
      }
    });
  }

  // --- metadata --------------------------------------------------------------------------------

  private void typeMetadata(TypeKind kind, String name, List<Annotation> before, List<Annotation> after) {
    List<Annotation> a = withoutHint(before);
    List<Annotation> b = withoutHint(after);
    if (!a.equals(b)) {
      steps.add(new SchemaStep.UpdateTypeMetadata(kind, name, wire(b)));
    }
  }

  private void propertyMetadata(TypeKind kind, String typeName, String property, List<Annotation> before,
      List<Annotation> after) {
    List<Annotation> a = withoutHint(before);
    List<Annotation> b = withoutHint(after);
    if (!a.equals(b)) {
      steps.add(new SchemaStep.UpdatePropertyMetadata(kind, typeName, property, wire(b)));
    }
  }

  private static List<SchemaStep.Annotation> wire(List<Annotation> annotations) {
    return annotations.stream()
        .map(a -> new SchemaStep.Annotation(a.name(), a.args().isEmpty() ? null : a.args().get(0), a.kwargs()))
        .toList();
  }

  // --- helpers ---------------------------------------------------------------------------------

  private void unsupported(String entity, String reason) {
    steps.add(new SchemaStep.UnsupportedChange(entity, reason));
  }

  /** The single positional value of a {@code @rename_from}, if the declaration carries one. */
  public static Optional<String> renameHint(List<Annotation> annotations) {
    return annotations.stream().filter(a -> a.name().equals(RENAME_FROM) && a.args().size() == 1)
        .map(a -> a.args().get(0)).findFirst();
  }

  private static List<Annotation> withoutHint(List<Annotation> annotations) {
    return annotations.stream().filter(a -> !a.name().equals(RENAME_FROM)).toList();
  }

  static SchemaStep.PropType propType(PropertyType t) {
    Object scalar = switch (t.kind()) {
      case VECTOR -> Map.of("Vector", t.vectorDim());
      case ENUM -> "String";
      default -> t.kind().spelling();
    };
    return new SchemaStep.PropType(scalar, t.nullable(), t.list(),
        t.kind() == ScalarKind.ENUM ? t.enumValues() : null);
  }

  /** {@code catalog} with every {@code @rename_from} removed: what a plan compares besides steps. */
  /** {@code catalog} without {@code @rename_from} hints: what an accepted schema holds of a desired one. */
  public static Catalog withoutRenameHints(Catalog catalog) {
    Function<List<Property>, List<Property>> props = ps -> ps.stream()
        .map(p -> new Property(p.name(), p.type(), withoutHint(p.annotations()))).toList();
    Map<String, NodeType> nodes = new TreeMap<>();
    catalog.nodes().forEach((k, n) -> nodes.put(k, new NodeType(n.name(), n.interfaces(), props.apply(n.properties()),
        n.key(), n.uniques(), n.indexes(), n.ranges(), n.checks(), withoutHint(n.annotations()))));
    Map<String, EdgeType> edges = new TreeMap<>();
    catalog.edges().forEach((k, e) -> edges.put(k, new EdgeType(e.name(), e.from(), e.to(), e.cardinality(),
        props.apply(e.properties()), e.uniques(), e.indexes(), withoutHint(e.annotations()))));
    Map<String, InterfaceType> interfaces = new TreeMap<>();
    catalog.interfaces().forEach((k, i) -> interfaces.put(k, new InterfaceType(i.name(), props.apply(i.properties()),
        i.key(), i.uniques(), i.indexes(), withoutHint(i.annotations()))));
    return new Catalog(new TreeMap<>(nodes), new TreeMap<>(edges), new TreeMap<>(interfaces));
  }
}
