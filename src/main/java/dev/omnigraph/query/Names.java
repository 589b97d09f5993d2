package dev.omnigraph.query;

import dev.omnigraph.schema.Catalog;
import dev.omnigraph.schema.EdgeType;
import dev.omnigraph.schema.NodeType;
import dev.omnigraph.schema.Property;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * Name resolution for one declaration's typecheck: node and edge types in the catalog, variables in
 * scope, parameters, declared properties; and the error that points at the offending position.
 */
final class Names {

  private final Ast.Decl decl;
  private final Catalog catalog;
  private final Map<String, ParamDecl> params = new LinkedHashMap<>();

  Names(Ast.Decl decl, Catalog catalog) {
    this.decl = decl;
    this.catalog = catalog;
    decl.params().forEach(p -> params.put(p.name(), p));
  }

  Catalog catalog() {
    return catalog;
  }

  Ast.Decl decl() {
    return decl;
  }

  boolean isParam(String name) {
    return params.containsKey(name);
  }

  ParamDecl paramDecl(String name) {
    return params.get(name);
  }

  // ---- operands ----

  Operand operand(Ast.Operand o, CheckScope scope) {
    if (o instanceof Ast.PropRef ref) {
      return propRef(ref, scope);
    }
    if (o instanceof Ast.Now) {
      return new Value.Now();
    }
    if (!(o instanceof Ast.VarRef v)) {
      throw new IllegalStateException("literals are typed against the other operand");
    }
    String name = v.var().text();
    if (scope.types().containsKey(name)) {
      throw err(v.pos(), "$" + name + " is a " + scope.types().get(name).name()
          + " node; compare one of its properties, as in $" + name + ".id");
    }
    if (scope.edges().containsKey(name)) {
      throw err(v.pos(), "$" + name + " is a " + scope.edges().get(name).name()
          + " edge; compare one of its properties");
    }
    ParamDecl p = params.get(name);
    if (p == null) {
      throw unbound(v.var());
    }
    return new Value.Param(name, p.type());
  }

  Operand.Property propRef(Ast.PropRef ref, CheckScope scope) {
    String var = ref.var().text();
    EdgeType edge = scope.edges().get(var);
    if (edge != null) {
      // Only declared properties, as in the reference: the edge's id and endpoints are not values of it.
      Property p = edge.property(ref.property().text()).orElseThrow(() -> err(ref.property().pos(), "$" + var
          + " is a " + edge.name() + " edge, which has no property '" + ref.property().text() + "'"
          + Hints.hint(ref.property().text(), names(edge.properties())) + knownProperties(edge.properties())));
      return new Operand.Property(var, p.name(), p.type());
    }
    NodeType type = scope.types().get(var);
    if (type == null) {
      if (params.containsKey(var)) {
        throw err(ref.pos(), "$" + var + " is a parameter, not a node variable; it has no properties");
      }
      throw unbound(ref.var());
    }
    return property(var, type, ref.property());
  }

  Operand.Property property(String var, NodeType type, Ast.Name prop) {
    if (prop.text().equals("id")) {
      return new Operand.Property(var, "id", Typing.ID);
    }
    Property p = type.property(prop.text()).orElseThrow(() -> err(prop.pos(), "variable $" + var + " is a "
        + type.name() + ", which has no property '" + prop.text() + "'"
        + Hints.hint(prop.text(), names(type.properties())) + knownProperties(type.properties())));
    return new Operand.Property(var, p.name(), p.type());
  }

  QueryParseException unbound(Ast.Name var) {
    List<String> known = new ArrayList<>(params.keySet());
    return err(var.pos(), "$" + var.text() + " is not bound: no earlier clause binds it (as in $" + var.text()
        + ": Type or a traversal) and no parameter has that name" + Hints.hint(var.text(), known));
  }

  void notAParameter(Ast.Name var) {
    if (params.containsKey(var.text())) {
      throw err(var.pos(), "$" + var.text() + " is a parameter of the query; a node variable needs another name");
    }
  }

  Value.Param param(Ast.VarRef v) {
    ParamDecl p = params.get(v.var().text());
    if (p == null) {
      throw err(v.pos(), "$" + v.var().text() + " is not a declared parameter" + Hints.hint(v.var().text(),
          params.keySet()) + "; a mutation's values are literals, parameters or now()");
    }
    return new Value.Param(p.name(), p.type());
  }

  Property declared(String owner, List<Property> properties, Ast.Name prop) {
    return properties.stream().filter(x -> x.name().equals(prop.text())).findFirst()
        .orElseThrow(() -> err(prop.pos(), owner + " has no property '" + prop.text() + "'"
            + Hints.hint(prop.text(), names(properties)) + knownProperties(properties)));
  }

  NodeType nodeType(Ast.Name name) {
    return catalog.node(name.text()).orElseThrow(() -> {
      if (catalog.edge(name.text()).isPresent()) {
        return err(name.pos(), name.text() + " is an edge type, not a node type; traverse it, as in $a "
            + name.text().toLowerCase(Locale.ROOT) + " $b");
      }
      return err(name.pos(), "unknown node type '" + name.text() + "'" + Hints.hint(name.text(), catalog.nodes().keySet())
          + known("node types", catalog.nodes().keySet()));
    });
  }

  QueryParseException unknownEdge(Ast.Name name) {
    if (catalog.node(name.text()).isPresent()) {
      return err(name.pos(), name.text() + " is a node type, not an edge; bind it, as in $x: " + name.text());
    }
    return err(name.pos(), "unknown edge '" + name.text() + "'" + Hints.hint(name.text(), catalog.edges().keySet())
        + known("edges", catalog.edges().keySet()));
  }

  QueryParseException unknownType(Ast.Name name, boolean edgesToo) {
    TreeSet<String> all = new TreeSet<>(catalog.nodes().keySet());
    if (edgesToo) {
      all.addAll(catalog.edges().keySet());
    }
    return err(name.pos(), "unknown " + (edgesToo ? "node or edge" : "node") + " type '" + name.text() + "'"
        + Hints.hint(name.text(), all) + known("types", all));
  }

  private static String known(String what, Collection<String> names) {
    return names.isEmpty() ? "; the schema declares no " + what : "; the schema's " + what + " are "
        + String.join(", ", names);
  }

  private static String knownProperties(List<Property> properties) {
    return properties.isEmpty() ? "; it has no properties" : "; its properties are "
        + String.join(", ", names(properties));
  }

  private static List<String> names(List<Property> properties) {
    return properties.stream().map(Property::name).toList();
  }


  QueryParseException err(Ast.Pos at, String reason) {
    return new QueryParseException(at.line(), at.column(), decl.name(), reason);
  }
}
