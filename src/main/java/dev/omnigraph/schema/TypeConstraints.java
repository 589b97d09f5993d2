package dev.omnigraph.schema;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/** Collects one type's constraints, validating each against its resolved properties. */
final class TypeConstraints {
  final String owner;
  final Map<String, SchemaChecker.Prop> props;
  final boolean edge;
  List<String> key = List.of();
  Raw.Pos keyAt;
  final Set<List<String>> uniques = new HashSet<>();
  final Set<List<String>> indexes = new HashSet<>();
  final Map<String, RangeConstraint> ranges = new HashMap<>();
  final Map<String, Raw.Pos> rangeAt = new HashMap<>();
  final Set<CheckConstraint> checks = new HashSet<>();

  TypeConstraints(String owner, Map<String, SchemaChecker.Prop> props, boolean edge) {
    this.owner = owner;
    this.props = props;
    this.edge = edge;
  }

  void body(Raw.Annotation a) {
    String name = a.name().text();
    if (edge && (name.equals("key") || name.equals("range") || name.equals("check"))) {
      throw SchemaChecker.error(a.pos(), "@" + name + " is not supported on edges (" + owner + ")"
          + (name.equals("key") ? ": edge ids are generated; use @unique(src, dst) to forbid parallel edges" : ""));
    }
    switch (name) {
      case "key", "unique", "index" -> add(name, columns(a), a.pos());
      case "range" -> range(a);
      case "check" -> check(a);
      default -> throw new IllegalStateException(name);
    }
  }

  private List<String> columns(Raw.Annotation a) {
    String name = a.name().text();
    if (a.args().isEmpty()) {
      throw SchemaChecker.error(a.pos(), "@" + name + " on " + owner + " needs at least one property name");
    }
    List<String> columns = new ArrayList<>();
    for (Raw.Arg arg : a.args()) {
      if (!(arg instanceof Raw.NameArg n)) {
        throw SchemaChecker.error(arg.pos(), "@" + name + " on " + owner + " lists property names; '" + arg.text()
            + "' is not one");
      }
      if (columns.contains(n.text())) {
        throw SchemaChecker.error(n.pos(), "@" + name + " on " + owner + " lists '" + n.text() + "' twice");
      }
      boolean system = edge && (n.text().equals("src") || n.text().equals("dst")) && !name.equals("key");
      if (!system) {
        SchemaChecker.Prop p = property(n.text(), name, n.pos());
        if (name.equals("key")) {
          SchemaChecker.checkKeyable(n.text(), p.type(), owner, n.pos());
        } else {
          SchemaChecker.checkIndexable(name, n.text(), p.type(), owner, n.pos());
        }
      }
      columns.add(n.text());
    }
    return List.copyOf(columns);
  }

  void add(String constraint, List<String> columns, Raw.Pos pos) {
    switch (constraint) {
      case "key" -> {
        if (keyAt != null && !key.equals(columns)) {
          throw SchemaChecker.error(pos, owner + " declares a second @key (" + String.join(", ", columns)
              + "; the first, at " + SchemaChecker.at(keyAt) + ", is " + String.join(", ", key)
              + "); a node has one key: list every key property in one @key(a, b)");
        }
        if (keyAt == null) {
          key = columns;
          keyAt = pos;
        }
      }
      // Uniqueness is over a set of columns; index column order matters to the index.
      case "unique" -> uniques.add(columns.stream().sorted().toList());
      case "index" -> indexes.add(columns);
      default -> throw new IllegalStateException(constraint);
    }
  }

  private void range(Raw.Annotation a) {
    String usage = "; write @range(property, min..max), either bound may be left open";
    if (a.args().size() != 2 || !(a.args().get(0) instanceof Raw.NameArg n)
        || !(a.args().get(1) instanceof Raw.RangeArg r)) {
      throw SchemaChecker.error(a.pos(), "@range on " + owner + " takes a property and a range" + usage);
    }
    SchemaChecker.Prop p = property(n.text(), "range", n.pos());
    if (!p.type().kind().isNumeric() || p.type().list()) {
      throw SchemaChecker.error(n.pos(), "@range on " + owner + " needs a numeric property; '" + n.text() + "' is "
          + p.type().display());
    }
    if (r.lo() == null && r.hi() == null) {
      throw SchemaChecker.error(r.pos(), "@range on " + owner + " needs at least one bound" + usage);
    }
    for (Raw.Num bound : Arrays.asList(r.lo(), r.hi())) {
      if (bound != null && p.type().kind().isInteger() && !bound.integral()) {
        throw SchemaChecker.error(bound.pos(), "@range bound " + bound.text() + " on " + p.type().display() + " property '"
            + n.text() + "' of " + owner + " must be a whole number");
      }
    }
    if (r.lo() != null && r.hi() != null && r.lo().value().compareTo(r.hi().value()) > 0) {
      throw SchemaChecker.error(r.pos(), "@range on " + owner + " has min " + r.lo().text() + " greater than max "
          + r.hi().text());
    }
    Raw.Pos first = rangeAt.putIfAbsent(n.text(), n.pos());
    if (first != null) {
      throw SchemaChecker.error(n.pos(), owner + " declares @range for '" + n.text() + "' twice (first at " + SchemaChecker.at(first) + ")");
    }
    ranges.put(n.text(), new RangeConstraint(n.text(),
        r.lo() == null ? null : r.lo().value(), r.hi() == null ? null : r.hi().value()));
  }

  private void check(Raw.Annotation a) {
    if (a.args().size() != 2 || !(a.args().get(0) instanceof Raw.NameArg n)
        || !(a.args().get(1) instanceof Raw.StringArg s)) {
      throw SchemaChecker.error(a.pos(), "@check on " + owner + " takes a property and a quoted pattern;"
          + " write @check(property, \"regex\")");
    }
    SchemaChecker.Prop p = property(n.text(), "check", n.pos());
    if (p.type().kind() != ScalarKind.STRING || p.type().list()) {
      throw SchemaChecker.error(n.pos(), "@check on " + owner + " needs a String property; '" + n.text() + "' is "
          + p.type().display());
    }
    try {
      Pattern.compile(s.value());
    } catch (PatternSyntaxException e) {
      throw SchemaChecker.error(s.pos(), "@check on " + owner + " has an invalid pattern for '" + n.text() + "': "
          + e.getDescription() + (e.getIndex() >= 0 ? " at index " + e.getIndex() : ""));
    }
    checks.add(new CheckConstraint(n.text(), s.value()));
  }

  private SchemaChecker.Prop property(String name, String constraint, Raw.Pos pos) {
    SchemaChecker.Prop p = props.get(name);
    if (p == null) {
      List<String> candidates = new ArrayList<>(props.keySet());
      if (edge) {
        candidates.addAll(List.of("src", "dst"));
      }
      throw SchemaChecker.error(pos, "unknown property '" + name + "' in @" + constraint + " of " + owner
          + Names.hint(name, candidates));
    }
    return p;
  }
}

