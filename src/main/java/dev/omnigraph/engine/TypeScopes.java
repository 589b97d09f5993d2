package dev.omnigraph.engine;

import dev.omnigraph.api.policy.PolicyAction;
import dev.omnigraph.engine.policy.PolicyGate;
import dev.omnigraph.read.GraphExport;
import java.util.List;
import java.util.Optional;

/**
 * The per-type halves of the authorization checks (docs/authorization.md, "Per-type scopes"): each
 * asks the gate the calling handle (or view) holds, once per call.
 */
final class TypeScopes {

  private TypeScopes() {}

  /**
   * The per-type check of a checked {@code .gq} query (docs/authorization.md, "Per-type scopes"): every
   * node and edge type it touches must be in the actor's scope of {@code action} on {@code branch}.
   *
   * @throws dev.omnigraph.api.TypeForbidden naming the first type outside it
   */
  static java.util.function.BiConsumer<dev.omnigraph.query.CheckedQuery, dev.omnigraph.schema.Catalog> admitTypes(
      PolicyGate gate, Optional<String> actor, PolicyAction action, Optional<String> branch) {
    return (checked, catalog) -> gate.checkTypes(actor, action, branch,
        dev.omnigraph.query.TouchedTypes.of(checked, catalog));
  }
  /**
   * {@code export} limited to the actor's type scope of {@code action} on {@code branch}: types the
   * caller asked for by name must all be in it (else refused), an export of every type streams only
   * those in it.
   *
   * @throws dev.omnigraph.api.TypeForbidden naming the first requested type outside the scope
   */
  static GraphExport inTypeScope(PolicyGate gate, GraphExport export, boolean named, Optional<String> actor,
      PolicyAction action, String branch) {
    dev.omnigraph.api.policy.NameScope scope = gate.typeScope(actor, action, Optional.of(branch));
    if (scope.all()) {
      return export;
    }
    if (named) {
      export.typeNames().forEach(t -> PolicyGate.refuseOutOfScope(scope, actor, action, Optional.of(branch), t,
          java.util.OptionalLong.empty()));
      return export;
    }
    return export.only(scope::covers);
  }
  /**
   * A change page limited to the actor's {@code read} type scope on {@code branch} (the feed's choice:
   * rows of other types are left out, as an export leaves them out); a type filter naming a type
   * outside it is refused.
   *
   * @throws dev.omnigraph.api.TypeForbidden naming the first filtered type outside the scope
   */
  static java.util.function.UnaryOperator<List<dev.omnigraph.api.CommitChangesOutput.EntityChange>> changesInScope(
      PolicyGate gate, dev.omnigraph.schema.Catalog catalog, Optional<String> actor, String branch,
      dev.omnigraph.api.ChangesPage page) {
    dev.omnigraph.api.policy.NameScope scope = gate.typeScope(actor, PolicyAction.READ, Optional.of(branch));
    if (scope.all()) {
      return changes -> changes;
    }
    for (String t : page.types()) {
      // The schema's spelling (edge names ignore case); an unknown name is the filter's own 400.
      catalog.node(t).map(dev.omnigraph.schema.NodeType::name)
          .or(() -> catalog.edge(t).map(dev.omnigraph.schema.EdgeType::name))
          .ifPresent(name -> PolicyGate.refuseOutOfScope(scope, actor, PolicyAction.READ, Optional.of(branch), name,
              java.util.OptionalLong.empty()));
    }
    return changes -> changes.stream().filter(c -> scope.covers(c.type().name())).toList();
  }
  /**
   * The per-type check of a load's rows, each at its line, as they are read (before anything is
   * staged): the scope is decided once, the lines only look it up.
   */
  static java.util.function.ObjLongConsumer<String> admitLoadTypes(PolicyGate gate, Optional<String> actor, String branch) {
    dev.omnigraph.api.policy.NameScope scope = gate.typeScope(actor, PolicyAction.CHANGE, Optional.ofNullable(branch));
    if (scope.all()) {
      return (type, line) -> { };
    }
    return (type, line) -> PolicyGate.refuseOutOfScope(scope, actor, PolicyAction.CHANGE,
        Optional.ofNullable(branch), type, java.util.OptionalLong.of(line));
  }
}
