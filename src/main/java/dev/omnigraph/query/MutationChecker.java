package dev.omnigraph.query;

import dev.omnigraph.schema.EdgeType;
import dev.omnigraph.schema.NodeType;
import dev.omnigraph.schema.Property;
import dev.omnigraph.schema.PropertyType;
import dev.omnigraph.schema.ScalarKind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The typecheck of a mutation: inserts, updates and deletes against the names.catalog(). */
final class MutationChecker {

  private final Names names;
  private final Typing typing;

  MutationChecker(Names names, Typing typing) {
    this.names = names;
    this.typing = typing;
  }

  CheckedMutation mutation(Ast.Mutations body) {
    rejectMixedModes(body.statements());
    List<Statement> statements = new ArrayList<>();
    for (Ast.Mutation m : body.statements()) {
      if (m instanceof Ast.Insert i) {
        statements.add(insert(i));
      } else if (m instanceof Ast.Update u) {
        statements.add(update(u));
      } else {
        statements.add(delete((Ast.Delete) m));
      }
    }
    return new CheckedMutation(names.decl().name(), names.decl().params(), statements);
  }

  /**
   * The D₂ rule (docs/write-path.md): one mutation is either insert/update-only or delete-only. Pending inserts and
   * delete predicates in one query would make read-your-writes ambiguous and force two commits on a
   * table, so the mix is refused, first, before any catalog lookup. Checked here, for the query that
   * runs, and not when the file is parsed: the reference serves a file's other queries beside a mixed one.
   */
  private void rejectMixedModes(List<Ast.Mutation> statements) {
    Ast.Mutation first = statements.get(0);
    boolean destructive = first instanceof Ast.Delete;
    for (Ast.Mutation m : statements) {
      if ((m instanceof Ast.Delete) != destructive) {
        Ast.Mutation write = destructive ? m : first;
        Ast.Mutation delete = destructive ? first : m;
        throw names.err(m.pos(), "a mutation cannot mix " + keyword(write) + " with delete (" + keyword(write) + " "
            + write.type().text() + " at " + write.pos() + ", delete " + delete.type().text() + " at " + delete.pos()
            + "); split the query into separate mutations, one with the inserts and updates and then one"
            + " with the deletes (or run both on a branch and merge it for a single commit)");
      }
    }
  }

  private static String keyword(Ast.Mutation m) {
    return m instanceof Ast.Insert ? "insert" : m instanceof Ast.Update ? "update" : "delete";
  }

  private Statement insert(Ast.Insert i) {
    noDuplicates(i.assignments());
    Optional<NodeType> node = names.catalog().node(i.type().text());
    if (node.isPresent()) {
      NodeType type = node.get();
      Map<String, Value> values = new LinkedHashMap<>();
      for (Ast.Assign a : i.assignments()) {
        String prop = a.property().text();
        if (prop.equals("id")) {
          throw names.err(a.property().pos(), "insert " + type.name() + " cannot assign id: "
              + (type.isKeyed() ? "it derives from the key (" + String.join(", ", type.key()) + ")"
                  : "it is generated for a type without @key"));
        }
        Property p = names.declared(type.name(), type.properties(), a.property());
        values.put(prop, assigned(a.value(), p.type(), "property '" + prop + "' of " + type.name()));
      }
      for (String k : type.key()) {
        if (!values.containsKey(k)) {
          throw names.err(i.type().pos(), "insert " + type.name() + " must set its key property '" + k + "'");
        }
      }
      for (Property p : type.properties()) {
        if (!p.type().nullable() && !values.containsKey(p.name())) {
          throw names.err(i.type().pos(), "insert " + type.name() + " must set non-nullable property '" + p.name()
              + "' (" + p.type().display() + ")");
        }
      }
      return new Statement.InsertNode(type, values);
    }
    EdgeType edge = names.catalog().edge(i.type().text()).orElseThrow(() -> names.unknownType(i.type(), true));
    Value from = null;
    Value to = null;
    Map<String, Value> values = new LinkedHashMap<>();
    for (Ast.Assign a : i.assignments()) {
      String prop = a.property().text();
      switch (prop) {
        case "from" -> from = endpointValue(a, edge, edge.from());
        case "to" -> to = endpointValue(a, edge, edge.to());
        case "id", "src", "dst" -> throw names.err(a.property().pos(), "insert " + edge.name() + " cannot assign " + prop
            + ": an edge's id is generated, and its endpoints are written from and to");
        default -> {
          Property p = names.declared(edge.name(), edge.properties(), a.property());
          values.put(prop, assigned(a.value(), p.type(), "property '" + prop + "' of " + edge.name()));
        }
      }
    }
    if (from == null || to == null) {
      throw names.err(i.type().pos(), "insert " + edge.name() + " must set both endpoints, from (a " + edge.from()
          + " id) and to (a " + edge.to() + " id); missing " + (from == null ? "from" : "to"));
    }
    for (Property p : edge.properties()) {
      if (!p.type().nullable() && !values.containsKey(p.name())) {
        throw names.err(i.type().pos(), "insert " + edge.name() + " must set non-nullable property '" + p.name()
            + "' (" + p.type().display() + ")");
      }
    }
    return new Statement.InsertEdge(edge, from, to, values);
  }

  /** An edge endpoint: a node id, so a String literal or a non-optional String parameter. */
  private Value endpointValue(Ast.Assign a, EdgeType edge, String nodeType) {
    String what = a.property().text() + " of " + edge.name() + " (a " + nodeType + " id)";
    if (a.value() instanceof Ast.Lit l && l.literal() instanceof Ast.Str s) {
      return new Value.Literal(s.value(), Typing.ID);
    }
    if (!(a.value() instanceof Ast.VarRef v)) {
      throw names.err(a.value().pos(), what + " must be a string or a String parameter");
    }
    Value.Param p = names.param(v);
    if (p.type().list() || p.type().kind() != ScalarKind.STRING) {
      throw names.err(v.pos(), "$" + p.name() + " is " + p.type().display() + ", but " + what + " is a String");
    }
    if (p.type().nullable()) {
      throw names.err(v.pos(), "$" + p.name() + " is optional (" + p.type().display() + "), but " + what + " is required");
    }
    return p;
  }

  private Statement update(Ast.Update u) {
    noDuplicates(u.assignments());
    Optional<NodeType> node = names.catalog().node(u.type().text());
    if (node.isEmpty()) {
      if (names.catalog().edge(u.type().text()).isPresent()) {
        throw names.err(u.type().pos(), "edges cannot be updated: " + u.type().text() + " is an edge type; delete the edge"
            + " and insert it again");
      }
      throw names.unknownType(u.type(), false);
    }
    NodeType type = node.get();
    Map<String, Value> values = new LinkedHashMap<>();
    for (Ast.Assign a : u.assignments()) {
      String prop = a.property().text();
      if (prop.equals("id")) {
        throw names.err(a.property().pos(), "update " + type.name() + " cannot set id: ids are immutable");
      }
      Property p = names.declared(type.name(), type.properties(), a.property());
      if (type.key().contains(prop)) {
        throw names.err(a.property().pos(), "update " + type.name() + " cannot set key property '" + prop
            + "': keys are immutable because the id derives from them; delete the node and insert a new one");
      }
      values.put(prop, assigned(a.value(), p.type(), "property '" + prop + "' of " + type.name()));
    }
    return new Statement.Update(type, values, predicate(u.where(), type.name(), type.properties(), false));
  }

  private Statement delete(Ast.Delete d) {
    Optional<NodeType> node = names.catalog().node(d.type().text());
    if (node.isPresent()) {
      return new Statement.DeleteNode(node.get(), predicate(d.where(), node.get().name(), node.get().properties(), false));
    }
    EdgeType edge = names.catalog().edge(d.type().text()).orElseThrow(() -> names.unknownType(d.type(), true));
    return new Statement.DeleteEdge(edge, predicate(d.where(), edge.name(), edge.properties(), true));
  }

  Predicate predicate(Ast.Pred p, String typeName, List<Property> properties, boolean edge) {
    String name = p.property().text();
    String column;
    PropertyType type;
    if (name.equals("id") || (edge && (name.equals("from") || name.equals("to")))) {
      column = name.equals("from") ? "src" : name.equals("to") ? "dst" : "id";
      type = Typing.ID;
    } else {
      Property declared = names.declared(typeName, properties, p.property());
      column = declared.name();
      type = declared.type();
    }
    if (p.value() instanceof Ast.VarRef v) {
      names.param(v);
    }
    // The '@' marks a mutation target rather than a match variable, for messages only.
    Operand.Property left = new Operand.Property("@" + typeName, column, type);
    Clause.Filter f = typing.comparison(left, p.property().pos(), p.op(), p.opPos(), p.value(), CheckScope.empty());
    return new Predicate(column, type, f.op(), (Value) f.right());
  }

  private void noDuplicates(List<Ast.Assign> assignments) {
    Map<String, Ast.Pos> seen = new HashMap<>();
    for (Ast.Assign a : assignments) {
      Ast.Pos previous = seen.putIfAbsent(a.property().text(), a.property().pos());
      if (previous != null) {
        throw names.err(a.property().pos(), "property '" + a.property().text() + "' is assigned twice (first at "
            + previous + ")");
      }
    }
  }

  /**
   * A value assigned to a property. Stricter than a comparison: a parameter must have the property's
   * exact kind (a String may feed an enum, checked per row), an optional parameter may not feed a
   * non-nullable property, and a literal must fit the type exactly (no 2.5 into an I32).
   */
  private Value assigned(Ast.Operand value, PropertyType target, String what) {
    if (value instanceof Ast.Now n) {
      if (target.list() || target.kind() != ScalarKind.DATETIME) {
        throw names.err(n.pos(), "now() is a DateTime, but " + what + " is " + target.display());
      }
      return new Value.Now();
    }
    if (value instanceof Ast.Lit l) {
      return typing.literalOfType(l.literal(), target, true, what);
    }
    Ast.VarRef v = (Ast.VarRef) value;
    Value.Param p = names.param(v);
    PropertyType t = p.type();
    boolean kindOk = t.kind() == target.kind() || (target.kind() == ScalarKind.ENUM && t.kind() == ScalarKind.STRING);
    if (!kindOk || t.list() != target.list() || t.vectorDim() != target.vectorDim()) {
      throw names.err(v.pos(), "parameter $" + p.name() + " is " + t.display() + ", but " + what + " is "
          + target.display());
    }
    if (t.nullable() && !target.nullable()) {
      throw names.err(v.pos(), "parameter $" + p.name() + " is optional (" + t.display() + "), but " + what
          + " is not nullable");
    }
    return p;
  }
}
