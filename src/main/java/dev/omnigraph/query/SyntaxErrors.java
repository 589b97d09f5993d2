package dev.omnigraph.query;

import dev.omnigraph.query.grammar.OmniQueryLexer;
import dev.omnigraph.query.grammar.OmniQueryParser;
import dev.omnigraph.syntax.BracketDepthLimit;
import dev.omnigraph.syntax.FirstSyntaxError;
import org.antlr.v4.runtime.Parser;
import org.antlr.v4.runtime.RuleContext;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.TokenSource;
import org.antlr.v4.runtime.TokenStream;
import org.antlr.v4.runtime.misc.IntervalSet;

/** The query language's words for its first syntax error, and its bracket-depth limit. */
final class SyntaxErrors extends FirstSyntaxError {

  static final SyntaxErrors INSTANCE = new SyntaxErrors();

  private SyntaxErrors() {}

  /** The lexer's tokens, refused past {@link QueryParser#MAX_NESTING} brackets ({ [ ( together). */
  static TokenSource depthLimited(OmniQueryLexer lexer) {
    return new BracketDepthLimit(lexer, QueryParser.MAX_NESTING,
        new int[] {OmniQueryLexer.LBRACE, OmniQueryLexer.LBRACK, OmniQueryLexer.LPAREN},
        new int[] {OmniQueryLexer.RBRACE, OmniQueryLexer.RBRACK, OmniQueryLexer.RPAREN},
        (t, limit) -> new QueryParseException(t.getLine(), t.getCharPositionInLine() + 1, null,
            "'" + t.getText() + "' nests deeper than " + limit
                + " levels of brackets ({ [ ( together), the query language's limit"));
  }

  @Override
  protected RuntimeException error(int line, int column, Parser parser, String message) {
    return new QueryParseException(line, column, parser == null ? null : enclosingQuery(parser), message);
  }

  @Override
  protected String lexicalHint(String head) {
    if (head.startsWith("$")) {
      return "'$' must be followed by a variable or parameter name";
    }
    if (head.startsWith("!")) {
      return "unexpected '!': the not-equal operator is '!='";
    }
    return null;
  }

  /**
   * The commonest slip in a match: {@code $p Person} for {@code $p: Person}. It parses as the start of
   * a traversal ({@code $p Knows $q}), so the error only strikes at the next token and said nothing
   * about the colon. When a variable and a capitalised name come just before the offending token and
   * no variable follows them, the message says how a binding is written.
   */
  @Override
  protected String parseHint(Parser parser, Token found) {
    TokenStream tokens = parser.getInputStream();
    if (tokens == null || found.getType() == OmniQueryLexer.VARIABLE) {
      return "";
    }
    Token name = previousOnChannel(tokens, found.getTokenIndex() - 1);
    Token variable = name == null ? null : previousOnChannel(tokens, name.getTokenIndex() - 1);
    if (variable == null || variable.getType() != OmniQueryLexer.VARIABLE || name.getText().isEmpty()
        || !Character.isUpperCase(name.getText().charAt(0))) {
      return "";
    }
    return " (to bind " + variable.getText() + " to the type " + name.getText() + ", write " + variable.getText()
        + ": " + name.getText() + ")";
  }

  private static Token previousOnChannel(TokenStream tokens, int index) {
    for (int i = index; i >= 0; i--) {
      Token t = tokens.get(i);
      if (t.getChannel() == Token.DEFAULT_CHANNEL) {
        return t;
      }
    }
    return null;
  }

  /** The declaration being parsed when the error struck, once its name has been read. */
  private static String enclosingQuery(Parser parser) {
    for (RuleContext c = parser.getContext(); c != null; c = c.parent) {
      if (c instanceof OmniQueryParser.QueryDeclContext d && d.name != null) {
        return d.name.getText();
      }
    }
    return null;
  }

  @Override
  protected boolean acceptsAnyName(IntervalSet expected) {
    return expected.contains(OmniQueryLexer.IDENT) && expected.contains(OmniQueryLexer.QUERY);
  }

  /** The keywords the {@code ident} rule also accepts as names. */
  @Override
  protected boolean isSoftKeyword(int type) {
    return type >= OmniQueryLexer.QUERY && type <= OmniQueryLexer.DATETIME;
  }

  @Override
  protected String tokenKind(int type) {
    return switch (type) {
      case OmniQueryLexer.IDENT -> "a name";
      case OmniQueryLexer.VARIABLE -> "a $variable";
      case OmniQueryLexer.INT -> "an integer";
      case OmniQueryLexer.FLOAT -> "a number";
      case OmniQueryLexer.STRING -> "a string";
      default -> null;
    };
  }
}
