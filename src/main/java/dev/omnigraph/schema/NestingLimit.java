package dev.omnigraph.schema;

import dev.omnigraph.schema.grammar.OmniSchemaLexer;
import org.antlr.v4.runtime.CharStream;
import org.antlr.v4.runtime.Token;

/**
 * The lexer, refusing brackets nested deeper than {@link SchemaParser#MAX_NESTING}. The list type
 * {@code [T]} is the schema grammar's only unbounded recursion, and it opens a bracket, so bounding
 * bracket depth bounds the parser's and the type reader's recursion: about 3,000 nested {@code [}
 * overflowed the thread stack (a 500, or a crashed CLI) before this. Counting in the token stream,
 * as the parser pulls tokens, lets a syntax error earlier in the text still be reported first. The
 * same rule as the query language's {@code query.NestingLimit}.
 */
final class NestingLimit extends OmniSchemaLexer {

  private int depth;

  NestingLimit(CharStream input) {
    super(input);
  }

  @Override
  public Token nextToken() {
    Token t = super.nextToken();
    switch (t.getType()) {
      case LBRACE, LBRACK, LPAREN -> {
        if (++depth > SchemaParser.MAX_NESTING) {
          throw new SchemaParseException(t.getLine(), t.getCharPositionInLine() + 1,
              "'" + t.getText() + "' nests deeper than " + SchemaParser.MAX_NESTING
                  + " levels of brackets ({ [ ( together), the schema language's limit");
        }
      }
      case RBRACE, RBRACK, RPAREN -> depth = Math.max(0, depth - 1);
      default -> { }
    }
    return t;
  }
}
