package dev.omnigraph.query;

import java.util.List;
import java.util.Optional;

/**
 * A declaration typechecked against a catalog by {@link QueryChecker#check}: a {@link CheckedRead}
 * or a {@link CheckedMutation}. Immutable; valid only for the catalog it was checked against.
 */
public sealed interface CheckedQuery permits CheckedRead, CheckedMutation {

  /** The query name. */
  String name();

  /** The declared parameters in declaration order. */
  List<ParamDecl> params();

  /** The parameter with this name (without {@code $}). */
  default Optional<ParamDecl> param(String name) {
    return params().stream().filter(p -> p.name().equals(name)).findFirst();
  }
}
