package dev.omnigraph.schema;

import dev.omnigraph.schema.grammar.OmniSchemaLexer;
import dev.omnigraph.syntax.BracketDepthLimit;
import dev.omnigraph.syntax.FirstSyntaxError;
import org.antlr.v4.runtime.Parser;
import org.antlr.v4.runtime.TokenSource;
import org.antlr.v4.runtime.misc.IntervalSet;

/** The schema language's words for its first syntax error, and its bracket-depth limit. */
final class SyntaxErrors extends FirstSyntaxError {

  static final SyntaxErrors INSTANCE = new SyntaxErrors();

  private SyntaxErrors() {}

  /**
   * The lexer's tokens, refused past {@link SchemaParser#MAX_NESTING} brackets ({ [ ( together); the
   * list type {@code [T]} is the schema grammar's only unbounded recursion.
   */
  static TokenSource depthLimited(OmniSchemaLexer lexer) {
    return new BracketDepthLimit(lexer, SchemaParser.MAX_NESTING,
        new int[] {OmniSchemaLexer.LBRACE, OmniSchemaLexer.LBRACK, OmniSchemaLexer.LPAREN},
        new int[] {OmniSchemaLexer.RBRACE, OmniSchemaLexer.RBRACK, OmniSchemaLexer.RPAREN},
        (t, limit) -> new SchemaParseException(t.getLine(), t.getCharPositionInLine() + 1,
            "'" + t.getText() + "' nests deeper than " + limit
                + " levels of brackets ({ [ ( together), the schema language's limit"));
  }

  @Override
  protected RuntimeException error(int line, int column, Parser parser, String message) {
    return new SchemaParseException(line, column, message);
  }

  @Override
  protected boolean acceptsAnyName(IntervalSet expected) {
    return expected.contains(OmniSchemaLexer.IDENT) && expected.contains(OmniSchemaLexer.NODE);
  }

  @Override
  protected boolean isSoftKeyword(int type) {
    return type == OmniSchemaLexer.NODE || type == OmniSchemaLexer.EDGE || type == OmniSchemaLexer.INTERFACE
        || type == OmniSchemaLexer.IMPLEMENTS || type == OmniSchemaLexer.ENUM;
  }

  @Override
  protected String tokenKind(int type) {
    return switch (type) {
      case OmniSchemaLexer.IDENT -> "a name";
      case OmniSchemaLexer.INT -> "an integer";
      case OmniSchemaLexer.FLOAT -> "a number";
      case OmniSchemaLexer.STRING -> "a string";
      default -> null;
    };
  }
}
