package dev.omnigraph.query;

import dev.omnigraph.query.grammar.OmniQueryLexer;
import dev.omnigraph.query.grammar.OmniQueryParser;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.antlr.v4.runtime.BaseErrorListener;
import org.antlr.v4.runtime.CharStream;
import org.antlr.v4.runtime.Lexer;
import org.antlr.v4.runtime.Parser;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Recognizer;
import org.antlr.v4.runtime.RuleContext;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.TokenStream;
import org.antlr.v4.runtime.Vocabulary;
import org.antlr.v4.runtime.misc.Interval;
import org.antlr.v4.runtime.misc.IntervalSet;

/**
 * Turns the first ANTLR syntax error into a {@link QueryParseException}: ANTLR would otherwise print
 * to stderr and recover into a cascade of follow-on errors. The message says what was found and what
 * would have been accepted, in the language's own words.
 */
final class SyntaxErrors extends BaseErrorListener {

  static final SyntaxErrors INSTANCE = new SyntaxErrors();

  private SyntaxErrors() {}

  @Override
  public void syntaxError(Recognizer<?, ?> recognizer, Object offendingSymbol, int line, int charPositionInLine,
      String msg, RecognitionException e) {
    int column = charPositionInLine + 1;
    if (recognizer instanceof Lexer lexer) {
      throw new QueryParseException(line, column, null, lexical(lexer));
    }
    Parser parser = (Parser) recognizer;
    Token found = (Token) offendingSymbol;
    IntervalSet expected = e != null && e.getExpectedTokens() != null ? e.getExpectedTokens() : parser.getExpectedTokens();
    throw new QueryParseException(line, column, enclosingQuery(parser),
        "unexpected " + describe(found) + "; expected " + expected(expected, parser.getVocabulary())
            + missingColonHint(parser, found));
  }

  /**
   * The commonest slip in a match (issue 45): {@code $p Person} for {@code $p: Person}. It parses as
   * the start of a traversal ({@code $p Knows $q}), so the error only strikes at the next token and
   * said nothing about the colon. When a variable and a capitalised name come just before the
   * offending token and no variable follows them, the message says how a binding is written.
   */
  private static String missingColonHint(Parser parser, Token found) {
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

  private static String lexical(Lexer lexer) {
    CharStream in = lexer.getInputStream();
    int start = lexer._tokenStartCharIndex;
    String head = in.getText(Interval.of(start, Math.min(start + 1, in.size() - 1)));
    if (head.startsWith("/*")) {
      return "unterminated block comment: '/*' has no closing '*/'";
    }
    if (head.startsWith("\"")) {
      return "unterminated string literal: missing closing '\"'";
    }
    if (head.startsWith("$")) {
      return "'$' must be followed by a variable or parameter name";
    }
    if (head.startsWith("!")) {
      return "unexpected '!': the not-equal operator is '!='";
    }
    int cp = head.codePointAt(0);
    String shown = Character.isISOControl(cp) || Character.isWhitespace(cp) || Character.isSurrogate((char) cp)
        ? String.format("U+%04X", cp) : "'" + new String(Character.toChars(cp)) + "'";
    return "unexpected character " + shown + " (names use ASCII letters, digits and '_'; text goes in double quotes)";
  }

  private static String describe(Token t) {
    return t.getType() == Token.EOF ? "end of input" : "'" + t.getText() + "'";
  }

  private static String expected(IntervalSet set, Vocabulary vocabulary) {
    TreeSet<String> words = new TreeSet<>();
    // Where any name is accepted, listing the keywords that double as names is noise.
    boolean anyName = set.contains(OmniQueryLexer.IDENT) && set.contains(OmniQueryLexer.QUERY);
    for (int type : set.toList()) {
      if (anyName && isSoftKeyword(type)) {
        continue;
      }
      words.add(display(type, vocabulary));
    }
    List<String> list = new ArrayList<>(words);
    return list.size() == 1 ? list.get(0) : "one of " + String.join(", ", list);
  }

  /** The keywords the {@code ident} rule also accepts as names. */
  private static boolean isSoftKeyword(int type) {
    return type >= OmniQueryLexer.QUERY && type <= OmniQueryLexer.DATETIME;
  }

  private static String display(int type, Vocabulary vocabulary) {
    return switch (type) {
      case Token.EOF -> "end of input";
      case OmniQueryLexer.IDENT -> "a name";
      case OmniQueryLexer.VARIABLE -> "a $variable";
      case OmniQueryLexer.INT -> "an integer";
      case OmniQueryLexer.FLOAT -> "a number";
      case OmniQueryLexer.STRING -> "a string";
      default -> {
        String literal = vocabulary.getLiteralName(type);
        yield literal != null ? literal : vocabulary.getSymbolicName(type);
      }
    };
  }
}
