package dev.omnigraph.schema;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * {@link Raw.Schema} to {@link Catalog}: resolves names and types, merges interfaces, turns
 * annotations into constraints and rejects what the engine could not honour. Fails on the first
 * problem, in source order, with the position of the token to fix.
 */
final class SchemaChecker {

  /** Lance's virtual columns: a property with one of these names would be shadowed on read. */
  private static final Set<String> LANCE_SYSTEM_COLUMNS = Set.of(
      "_rowid", "_rowaddr", "_rowoffset", "_row_created_at_version", "_row_last_updated_at_version");

  private static final Set<String> CONSTRAINTS = Set.of("key", "unique", "index", "range", "check");
  private static final Set<String> PROPERTY_FLAGS = Set.of("key", "unique", "index");

  private static final List<String> TYPE_SPELLINGS = Arrays.stream(ScalarKind.values())
      .map(ScalarKind::spelling).toList();

  private static final Comparator<List<String>> COLUMN_LIST_ORDER = (a, b) -> {
    for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
      int c = a.get(i).compareTo(b.get(i));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.size(), b.size());
  };

  private static final Comparator<Annotation> ANNOTATION_ORDER = Comparator
      .comparing(Annotation::name)
      .thenComparing(Annotation::args, COLUMN_LIST_ORDER)
      .thenComparing(a -> flatten(a.kwargs()), COLUMN_LIST_ORDER);

  static List<String> flatten(Map<String, String> sorted) {
    List<String> out = new ArrayList<>();
    sorted.forEach((k, v) -> {
      out.add(k);
      out.add(v);
    });
    return out;
  }

  private final Map<String, Raw.Decl> declared = new LinkedHashMap<>();
  private final Map<String, ResolvedInterface> interfaces = new HashMap<>();

  private SchemaChecker() {}

  static Catalog check(Raw.Schema schema) {
    return new SchemaChecker().run(schema);
  }

  private Catalog run(Raw.Schema schema) {
    declareNames(schema);
    Map<String, NodeType> nodes = new TreeMap<>();
    Map<String, EdgeType> edges = new TreeMap<>();
    for (Raw.Decl d : schema.decls()) {
      switch (d.kind()) {
        case INTERFACE -> resolveInterface(d);
        case NODE -> nodes.put(d.name().text(), node(d));
        case EDGE -> edges.put(d.name().text(), edge(d));
      }
    }
    Map<String, InterfaceType> ifaces = new TreeMap<>();
    interfaces.forEach((name, r) -> ifaces.put(name, r.type));
    return new Catalog(new TreeMap<>(nodes), new TreeMap<>(edges), new TreeMap<>(ifaces));
  }

  // ---- names -------------------------------------------------------------------------------

  private void declareNames(Raw.Schema schema) {
    Map<String, Raw.Decl> edgesByFold = new HashMap<>();
    for (Raw.Decl d : schema.decls()) {
      Raw.Name name = d.name();
      if (!Names.TYPE_NAME.matcher(name.text()).matches()) {
        throw error(name.pos(), d.kind().word + " name '" + name.text()
            + "' must start with an uppercase letter (A-Z) followed by letters, digits or '_'");
      }
      Raw.Decl previous = declared.get(name.text());
      if (previous != null) {
        throw error(name.pos(), "duplicate type name '" + name.text() + "': already declared as "
            + previous.kind().word + " at " + at(previous.name().pos()));
      }
      if (d.kind() == Raw.Kind.EDGE) {
        Raw.Decl clash = edgesByFold.putIfAbsent(Catalog.foldEdgeName(name.text()), d);
        if (clash != null) {
          throw error(name.pos(), "duplicate edge name '" + name.text() + "': edge '"
              + clash.name().text() + "' at " + at(clash.name().pos())
              + " differs only in case, and edge names are matched case-insensitively");
        }
      }
      declared.put(name.text(), d);
    }
  }

  // ---- interfaces --------------------------------------------------------------------------

  /** An interface's properties with the flags (key/unique/index) each carries for implementors. */
  private record ResolvedInterface(InterfaceType type, Map<String, Prop> props) {}

  private ResolvedInterface resolveInterface(Raw.Decl d) {
    ResolvedInterface done = interfaces.get(d.name().text());
    if (done != null) {
      return done;
    }
    String owner = "interface " + d.name().text();
    for (Raw.Annotation a : d.header()) {
      rejectConstraintOutsideBody(a, owner);
    }
    List<Raw.Annotation> bodyAnnotations = new ArrayList<>();
    for (Raw.Annotation a : d.body()) {
      if (CONSTRAINTS.contains(a.name().text()) || a.name().text().equals("card")) {
        throw error(a.pos(), "@" + a.name().text() + "(...) is not allowed in " + owner
            + ": interfaces declare properties; mark a property with @key, @unique or @index,"
            + " or put the constraint on the implementing node");
      }
      bodyAnnotations.add(a);
    }
    Map<String, Prop> props = properties(d, owner, false);
    for (Prop p : props.values()) {
      if (!p.deferred.isEmpty()) {
        Raw.Annotation a = p.deferred.get(0);
        throw error(a.pos(), "@" + a.name().text() + "(...) is not allowed in " + owner
            + ": write a bare @" + a.name().text() + " after the property, or put the constraint on"
            + " the implementing node");
      }
    }
    List<String> key = List.of();
    Raw.Pos keyAt = null;
    Set<List<String>> uniques = new HashSet<>();
    Set<List<String>> indexes = new HashSet<>();
    for (Prop p : props.values()) {
      Raw.Pos flagged = p.flags.get("key");
      if (flagged != null) {
        if (keyAt != null) {
          throw error(flagged, owner + " flags both '" + key.get(0) + "' (at " + at(keyAt) + ") and '" + p.name
              + "' with @key; declare a key spanning several properties on the node, as @key(a, b)");
        }
        key = List.of(p.name);
        keyAt = flagged;
      }
      if (p.flags.containsKey("unique")) {
        uniques.add(List.of(p.name));
      }
      if (p.flags.containsKey("index")) {
        indexes.add(List.of(p.name));
      }
    }
    List<Annotation> annotations = new ArrayList<>(kept(d.header(), owner));
    annotations.addAll(kept(bodyAnnotations, owner));
    InterfaceType type = new InterfaceType(d.name().text(), sortedProperties(props), key, sortedLists(uniques),
        sortedLists(indexes), canonical(annotations));
    ResolvedInterface resolved = new ResolvedInterface(type, props);
    interfaces.put(d.name().text(), resolved);
    return resolved;
  }

  // ---- nodes -------------------------------------------------------------------------------

  private NodeType node(Raw.Decl d) {
    String owner = "node " + d.name().text();
    for (Raw.Annotation a : d.header()) {
      rejectConstraintOutsideBody(a, owner);
    }
    Map<String, Prop> props = properties(d, owner, false);
    Set<String> direct = new LinkedHashSet<>(props.keySet());

    TreeSet<String> implemented = new TreeSet<>();
    List<ResolvedInterface> contracts = new ArrayList<>();
    Map<String, String> contributedBy = new HashMap<>();
    for (Raw.Name iface : d.implemented()) {
      Raw.Decl target = declared.get(iface.text());
      if (target == null) {
        throw error(iface.pos(), owner + " implements unknown interface '" + iface.text() + "'"
            + Names.hint(iface.text(), namesOf(Raw.Kind.INTERFACE)));
      }
      if (target.kind() != Raw.Kind.INTERFACE) {
        throw error(iface.pos(), owner + " implements '" + iface.text() + "', which is "
            + target.kind().withArticle + ", not an interface");
      }
      if (!implemented.add(iface.text())) {
        throw error(iface.pos(), owner + " lists interface '" + iface.text() + "' twice");
      }
      ResolvedInterface contract = resolveInterface(target);
      contracts.add(contract);
      for (Prop ip : contract.props.values()) {
        Prop mine = props.get(ip.name);
        if (mine == null) {
          props.put(ip.name, ip);
          contributedBy.put(ip.name, iface.text());
          continue;
        }
        if (!mine.type.equals(ip.type)) {
          if (direct.contains(ip.name)) {
            throw error(mine.pos, "property '" + ip.name + "' of " + owner + " has type "
                + mine.type.display() + " but interface " + iface.text() + " declares it as "
                + ip.type.display());
          }
          throw error(iface.pos(), owner + " cannot implement both " + contributedBy.get(ip.name)
              + " and " + iface.text() + ": they declare '" + ip.name + "' as "
              + mine.type.display() + " and " + ip.type.display());
        }
      }
    }

    // Interface flags bind every implementor (a redeclared property keeps only its own
    // annotations). They are applied first so that a clash is reported at the node's own
    // declaration, the one being written, rather than inside a shared interface.
    TypeConstraints c = new TypeConstraints(owner, props, false);
    for (ResolvedInterface contract : contracts) {
      for (Prop ip : contract.props.values()) {
        ip.flags.forEach((flag, pos) -> c.add(flag, List.of(ip.name), pos));
      }
    }
    for (String name : direct) {
      Prop p = props.get(name);
      p.flags.forEach((flag, pos) -> c.add(flag, List.of(p.name), pos));
      for (Raw.Annotation a : p.deferred) {
        c.body(a);
      }
    }
    List<Annotation> annotations = new ArrayList<>(kept(d.header(), owner));
    for (Raw.Annotation a : d.body()) {
      if (CONSTRAINTS.contains(a.name().text())) {
        c.body(a);
      } else if (a.name().text().equals("card")) {
        throw error(a.pos(), "@card applies to edges only; " + owner + " cannot carry it");
      } else {
        annotations.add(keep(a, owner));
      }
    }
    return new NodeType(d.name().text(), List.copyOf(implemented), sortedProperties(props), c.key,
        sortedLists(c.uniques), sortedLists(c.indexes), sortedRanges(c.ranges), sortedChecks(c.checks),
        canonical(annotations));
  }

  // ---- edges -------------------------------------------------------------------------------

  private EdgeType edge(Raw.Decl d) {
    String owner = "edge " + d.name().text();
    String from = endpoint(d.from(), owner);
    String to = endpoint(d.to(), owner);
    Cardinality card = Cardinality.UNBOUNDED;
    Raw.Annotation cardAt = null;
    List<Annotation> annotations = new ArrayList<>();
    for (Raw.Annotation a : d.header()) {
      if (a.name().text().equals("card")) {
        if (cardAt != null) {
          throw error(a.pos(), owner + " declares @card twice (first at " + at(cardAt.pos()) + ")");
        }
        cardAt = a;
        card = cardinality(a, owner);
      } else {
        rejectConstraintOutsideBody(a, owner);
        annotations.add(keep(a, owner));
      }
    }
    Map<String, Prop> props = properties(d, owner, true);
    TypeConstraints c = new TypeConstraints(owner, props, true);
    for (Prop p : props.values()) {
      p.flags.forEach((flag, pos) -> c.add(flag, List.of(p.name), pos));
      for (Raw.Annotation a : p.deferred) {
        c.body(a);
      }
    }
    for (Raw.Annotation a : d.body()) {
      if (CONSTRAINTS.contains(a.name().text())) {
        c.body(a);
      } else if (a.name().text().equals("card")) {
        throw error(a.pos(), "@card goes in the edge header: edge " + d.name().text() + ": "
            + from + " -> " + to + " @card(min..max) { ... }");
      } else {
        annotations.add(keep(a, owner));
      }
    }
    return new EdgeType(d.name().text(), from, to, card, sortedProperties(props),
        sortedLists(c.uniques), sortedLists(c.indexes), canonical(annotations));
  }

  private String endpoint(Raw.Name ref, String owner) {
    Raw.Decl target = declared.get(ref.text());
    if (target == null) {
      throw error(ref.pos(), owner + " references unknown node type '" + ref.text() + "'"
          + Names.hint(ref.text(), namesOf(Raw.Kind.NODE)));
    }
    if (target.kind() != Raw.Kind.NODE) {
      throw error(ref.pos(), owner + " connects '" + ref.text() + "', which is "
          + target.kind().withArticle + "; edge endpoints must be node types");
    }
    return ref.text();
  }

  private static Cardinality cardinality(Raw.Annotation a, String owner) {
    String usage = "; write @card(min..max) or @card(min..), e.g. @card(0..1)";
    if (!a.hasParens() || a.args().size() != 1 || !(a.args().get(0) instanceof Raw.RangeArg range)) {
      throw error(a.pos(), "@card on " + owner + " takes one range" + usage);
    }
    if (range.lo() == null) {
      throw error(range.pos(), "@card on " + owner + " needs a lower bound" + usage);
    }
    long min = cardBound(range.lo(), owner);
    Long max = range.hi() == null ? null : cardBound(range.hi(), owner);
    if (max != null && min > max) {
      throw error(range.pos(), "@card on " + owner + " has min " + min + " greater than max " + max);
    }
    return new Cardinality(min, max);
  }

  private static long cardBound(Raw.Num n, String owner) {
    if (!n.integral() || n.value().signum() < 0 || n.value().compareTo(BigDecimal.valueOf(Cardinality.LIMIT)) > 0) {
      throw error(n.pos(), "@card bound '" + n.text() + "' on " + owner
          + " must be a whole number from 0 to " + Cardinality.LIMIT);
    }
    return n.value().longValueExact();
  }

  // ---- properties --------------------------------------------------------------------------

  /** A resolved property plus what the checker still needs: position, flags and deferred constraints. */
  record Prop(String name, Raw.Pos pos, PropertyType type, List<Annotation> annotations,
      Map<String, Raw.Pos> flags, List<Raw.Annotation> deferred) {

    Property property() {
      return new Property(name, type, annotations);
    }
  }

  private Map<String, Prop> properties(Raw.Decl d, String owner, boolean edge) {
    Map<String, Prop> props = new LinkedHashMap<>();
    for (Raw.Prop p : d.props()) {
      String name = p.name().text();
      if (!Names.PROPERTY_NAME.matcher(name).matches()) {
        throw error(p.name().pos(), "property name '" + name + "' in " + owner
            + " must start with a lowercase letter or '_' followed by letters, digits or '_'");
      }
      if (name.equals("id") || (edge && (name.equals("src") || name.equals("dst")))) {
        throw error(p.name().pos(), "property name '" + name + "' in " + owner + " is reserved: every "
            + (edge ? "edge row has system columns id, src and dst" : "row has a system column id"));
      }
      if (name.startsWith(BlobValue.URI_COLUMN_PREFIX)) {
        throw error(p.name().pos(), "property name '" + name + "' in " + owner + " is reserved: names starting '"
            + BlobValue.URI_COLUMN_PREFIX + "' are a Blob's URI column");
      }
      if (LANCE_SYSTEM_COLUMNS.contains(name)) {
        throw error(p.name().pos(), "property name '" + name + "' in " + owner
            + " is reserved for a Lance system column");
      }
      Prop previous = props.get(name);
      if (previous != null) {
        throw error(p.name().pos(), "duplicate property '" + name + "' in " + owner
            + " (first declared at " + at(previous.pos) + ")");
      }
      PropertyType type = type(p.type(), name, owner);
      Map<String, Raw.Pos> flags = new TreeMap<>();
      List<Raw.Annotation> deferred = new ArrayList<>();
      List<Annotation> annotations = new ArrayList<>();
      for (Raw.Annotation a : p.annotations()) {
        String an = a.name().text();
        if (CONSTRAINTS.contains(an) && a.hasParens()) {
          // `@unique(a, b)` after a property is the body form, as in the reference grammar.
          deferred.add(a);
        } else if (PROPERTY_FLAGS.contains(an)) {
          if (flags.putIfAbsent(an, a.pos()) != null) {
            throw error(a.pos(), "property '" + name + "' of " + owner + " repeats @" + an);
          }
          checkFlag(an, name, type, owner, edge, a.pos());
        } else if (an.equals("range") || an.equals("check")) {
          throw error(a.pos(), "@" + an + " needs arguments: write "
              + (an.equals("range") ? "@range(" + name + ", min..max)" : "@check(" + name + ", \"regex\")")
              + " in the body of " + owner);
        } else if (an.equals("card")) {
          throw error(a.pos(), "@card applies to edge declarations, not to property '" + name + "'");
        } else {
          annotations.add(keep(a, owner));
        }
      }
      props.put(name, new Prop(name, p.name().pos(), type, canonical(annotations), flags, deferred));
    }
    return props;
  }

  static void checkFlag(String flag, String prop, PropertyType type, String owner, boolean edge, Raw.Pos pos) {
    if (flag.equals("key")) {
      if (edge) {
        throw error(pos, "@key is not supported on edges (" + owner + "): edge ids are generated;"
            + " use @unique(src, dst) to forbid parallel edges");
      }
      checkKeyable(prop, type, owner, pos);
    } else {
      checkIndexable(flag, prop, type, owner, pos);
    }
  }

  static void checkKeyable(String prop, PropertyType type, String owner, Raw.Pos pos) {
    if (type.nullable()) {
      throw error(pos, "@key property '" + prop + "' of " + owner + " is nullable (" + type.display()
          + "); every key property must always have a value");
    }
    if (!type.isSingleScalar()) {
      throw error(pos, "@key property '" + prop + "' of " + owner + " has type " + type.display()
          + "; a key needs single scalar values, not lists or vectors");
    }
  }

  static void checkIndexable(String constraint, String prop, PropertyType type, String owner, Raw.Pos pos) {
    if (type.list()) {
      throw error(pos, "@" + constraint + " is not supported on list property '" + prop + "' of " + owner
          + " (" + type.display() + ")");
    }
    if (type.isBlob()) {
      // Lance reads a blob column as (position, size) descriptions: there is no value to index or compare.
      throw error(pos, "@" + constraint + " is not supported on Blob property '" + prop + "' of " + owner);
    }
    if (constraint.equals("unique") && type.kind() == ScalarKind.VECTOR) {
      throw error(pos, "@unique is not supported on vector property '" + prop + "' of " + owner);
    }
  }

  private PropertyType type(Raw.TypeRef ref, String prop, String owner) {
    if (ref instanceof Raw.ListOf list) {
      if (!(list.element() instanceof Raw.Named element)) {
        throw error(list.element().pos(), "property '" + prop + "' of " + owner
            + ": a list holds plain scalars, not "
            + (list.element() instanceof Raw.ListOf ? "lists" : "enums"));
      }
      if (element.nullable()) {
        throw error(element.pos(), "property '" + prop + "' of " + owner
            + ": list elements cannot be nullable; write [" + element.name() + "]? for a nullable list");
      }
      PropertyType inner = named(element, prop, owner);
      if (inner.kind() == ScalarKind.VECTOR || inner.isBlob()) {
        throw error(element.pos(), "property '" + prop + "' of " + owner + ": lists of "
            + (inner.isBlob() ? "Blobs" : "vectors") + " are not supported");
      }
      return new PropertyType(inner.kind(), true, list.nullable(), List.of(), 0);
    }
    if (ref instanceof Raw.EnumOf e) {
      if (e.values().isEmpty()) {
        throw error(e.pos(), "property '" + prop + "' of " + owner + ": enum must list at least one value");
      }
      Map<String, Raw.Pos> seen = new HashMap<>();
      for (Raw.Name v : e.values()) {
        Raw.Pos first = seen.putIfAbsent(v.text(), v.pos());
        if (first != null) {
          throw error(v.pos(), "property '" + prop + "' of " + owner + ": duplicate enum value '"
              + v.text() + "' (first at " + at(first) + ")");
        }
      }
      // Variants form a set (as in the reference), so their order is not part of the type.
      List<String> values = new ArrayList<>(new TreeSet<>(seen.keySet()));
      return new PropertyType(ScalarKind.ENUM, false, e.nullable(), values, 0);
    }
    return named((Raw.Named) ref, prop, owner);
  }

  private PropertyType named(Raw.Named n, String prop, String owner) {
    if (n.name().equals("Vector")) {
      if (n.arg() == null) {
        throw error(n.pos(), "property '" + prop + "' of " + owner + ": Vector needs a dimension, e.g. Vector(384)");
      }
      BigDecimal dim = n.arg().value();
      if (!n.arg().integral() || dim.signum() <= 0 || dim.compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) > 0) {
        throw error(n.arg().pos(), "property '" + prop + "' of " + owner + ": Vector dimension must be a"
            + " whole number from 1 to " + Integer.MAX_VALUE + ", got " + n.arg().text());
      }
      return new PropertyType(ScalarKind.VECTOR, false, n.nullable(), List.of(), dim.intValueExact());
    }
    ScalarKind kind = ScalarKind.bySpelling(n.name());
    if (kind == null) {
      Raw.Decl d = declared.get(n.name());
      if (d != null) {
        throw error(n.pos(), "property '" + prop + "' of " + owner + " has type '" + n.name() + "', which is "
            + d.kind().withArticle + "; properties hold scalar values, connect types with an edge");
      }
      throw error(n.pos(), "unknown type '" + n.name() + "' for property '" + prop + "' of " + owner
          + Names.hint(n.name(), TYPE_SPELLINGS));
    }
    if (n.arg() != null) {
      throw error(n.arg().pos(), "property '" + prop + "' of " + owner + ": type " + n.name()
          + " takes no argument");
    }
    return PropertyType.scalar(kind, n.nullable());
  }

  // ---- constraints -------------------------------------------------------------------------

  // ---- annotations and helpers -------------------------------------------------------------

  private static void rejectConstraintOutsideBody(Raw.Annotation a, String owner) {
    String name = a.name().text();
    if (CONSTRAINTS.contains(name)) {
      throw error(a.pos(), "@" + name + " cannot annotate " + owner + " itself: put it after a property"
          + " or inside the braces, e.g. @" + name + "(...)");
    }
    if (name.equals("card")) {
      throw error(a.pos(), "@card applies to edges only; " + owner + " cannot carry it");
    }
  }

  static List<Annotation> kept(List<Raw.Annotation> raw, String owner) {
    return raw.stream().map(a -> keep(a, owner)).toList();
  }

  static Annotation keep(Raw.Annotation a, String owner) {
    List<String> args = new ArrayList<>();
    Map<String, String> kwargs = new TreeMap<>();
    for (Raw.Arg arg : a.args()) {
      if (arg instanceof Raw.KeywordArg kw) {
        if (kwargs.put(kw.key().text(), kw.value().text()) != null) {
          throw error(kw.pos(), "@" + a.name().text() + " on " + owner + " repeats argument '"
              + kw.key().text() + "='");
        }
      } else {
        args.add(arg.text());
      }
    }
    return new Annotation(a.name().text(), args, kwargs);
  }

  private static List<Annotation> canonical(List<Annotation> annotations) {
    return annotations.stream().sorted(ANNOTATION_ORDER).distinct().toList();
  }

  private static List<Property> sortedProperties(Map<String, Prop> props) {
    return props.values().stream().map(Prop::property).sorted(Comparator.comparing(Property::name)).toList();
  }

  private static List<List<String>> sortedLists(Set<List<String>> lists) {
    return lists.stream().sorted(COLUMN_LIST_ORDER).toList();
  }

  private static List<RangeConstraint> sortedRanges(Map<String, RangeConstraint> ranges) {
    return ranges.values().stream().sorted(Comparator.comparing(RangeConstraint::property)).toList();
  }

  private static List<CheckConstraint> sortedChecks(Set<CheckConstraint> checks) {
    return checks.stream().sorted(Comparator.comparing(CheckConstraint::property)
        .thenComparing(CheckConstraint::pattern)).toList();
  }

  private List<String> namesOf(Raw.Kind kind) {
    return declared.values().stream().filter(d -> d.kind() == kind).map(d -> d.name().text()).toList();
  }

  static String at(Raw.Pos pos) {
    return pos.line() + ":" + pos.column();
  }

  static SchemaParseException error(Raw.Pos pos, String reason) {
    return new SchemaParseException(pos.line(), pos.column(), reason);
  }
}
