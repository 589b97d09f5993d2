package dev.omnigraph.query;

import dev.omnigraph.schema.Catalog;

/**
 * One typecheck of one declaration; see {@link QueryChecker}. Its rooms: {@link Names} (name
 * resolution and errors), {@link Typing} (literals and comparisons), {@link ReadChecker} with
 * {@link SearchCalls}, and {@link MutationChecker} (with the D₂ rule on mixed mutations).
 */
final class Checker {

  private final Ast.Decl decl;
  private final Names names;
  private final Typing typing;

  Checker(Ast.Decl decl, Catalog catalog) {
    this.decl = decl;
    this.names = new Names(decl, catalog);
    this.typing = new Typing(names);
  }

  CheckedQuery check() {
    if (decl.body() instanceof Ast.Read read) {
      return new ReadChecker(names, typing, new SearchCalls(names, typing)).read(read);
    }
    return new MutationChecker(names, typing).mutation((Ast.Mutations) decl.body());
  }
}
