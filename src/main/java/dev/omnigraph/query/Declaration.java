package dev.omnigraph.query;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One parsed {@code query name(...) { ... }} declaration, not yet checked against a schema. Its body
 * is opaque: pass it to {@link QueryChecker#check} for the typed form the engine runs.
 */
public final class Declaration {

  private final Ast.Decl decl;

  Declaration(Ast.Decl decl) {
    this.decl = Objects.requireNonNull(decl, "decl");
  }

  /** The query name. */
  public String name() {
    return decl.name();
  }

  /** The declared parameters in declaration order. */
  public List<ParamDecl> params() {
    return decl.params();
  }

  /** The parameter with this name (without {@code $}). */
  public Optional<ParamDecl> param(String name) {
    return decl.params().stream().filter(p -> p.name().equals(name)).findFirst();
  }

  /** The {@code @description("…")} of the declaration, for catalogs of stored queries. */
  public Optional<String> description() {
    return Optional.ofNullable(decl.description());
  }

  /** The {@code @instruction("…")} of the declaration: how an agent should use the query. */
  public Optional<String> instruction() {
    return Optional.ofNullable(decl.instruction());
  }

  /** True for an insert/update/delete body, false for a {@code match ... return} read. */
  public boolean isMutation() {
    return decl.body() instanceof Ast.Mutations;
  }

  /** 1-based line of the query name. */
  public int line() {
    return decl.pos().line();
  }

  /** 1-based column of the query name. */
  public int column() {
    return decl.pos().column();
  }

  Ast.Decl ast() {
    return decl;
  }

  @Override
  public String toString() {
    return "query " + name() + " at " + decl.pos();
  }
}
