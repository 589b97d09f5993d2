package dev.omnigraph.query;

import dev.omnigraph.query.grammar.OmniQueryLexer;
import org.antlr.v4.runtime.CharStream;
import org.antlr.v4.runtime.Token;

/**
 * The lexer, refusing brackets nested deeper than {@link QueryParser#MAX_NESTING}. Every recursive
 * rule of the grammar (a {@code not} block, a list type, a list literal) opens a bracket, so bounding
 * bracket depth bounds the parser's, the checker's and the executor's recursion: 3,000 nested
 * {@code not} blocks overflowed the thread stack (a 500) before this. Counting in the token stream, as the
 * parser pulls tokens, lets a syntax error that comes earlier in the text still be reported first.
 */
final class NestingLimit extends OmniQueryLexer {

  private int depth;

  NestingLimit(CharStream input) {
    super(input);
  }

  @Override
  public Token nextToken() {
    Token t = super.nextToken();
    switch (t.getType()) {
      case LBRACE, LBRACK, LPAREN -> {
        if (++depth > QueryParser.MAX_NESTING) {
          throw new QueryParseException(t.getLine(), t.getCharPositionInLine() + 1, null,
              "'" + t.getText() + "' nests deeper than " + QueryParser.MAX_NESTING
                  + " levels of brackets ({ [ ( together), the query language's limit");
        }
      }
      case RBRACE, RBRACK, RPAREN -> depth = Math.max(0, depth - 1);
      default -> { }
    }
    return t;
  }
}
