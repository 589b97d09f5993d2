package dev.omnigraph.syntax;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.antlr.v4.runtime.BaseErrorListener;
import org.antlr.v4.runtime.CharStream;
import org.antlr.v4.runtime.Lexer;
import org.antlr.v4.runtime.Parser;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Recognizer;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.Vocabulary;
import org.antlr.v4.runtime.misc.Interval;
import org.antlr.v4.runtime.misc.IntervalSet;

/**
 * Turns the first ANTLR syntax error into the language's own exception. ANTLR would otherwise print to
 * stderr and recover into a cascade of follow-on errors nobody can act on. The message says what was
 * found and what would have been accepted, in the language's words: each language names its token
 * kinds ({@link #tokenKind}), which keywords double as names ({@link #isSoftKeyword}) and any hint of
 * its own.
 */
public abstract class FirstSyntaxError extends BaseErrorListener {

  protected FirstSyntaxError() {}

  /** The language's exception for an error at a 1-based line and column. */
  protected abstract RuntimeException error(int line, int column, Parser parserOrNull, String message);

  /** How the language names a token kind ("a name", "a string"), or null to show its literal. */
  protected abstract String tokenKind(int type);

  /** Whether an expected-token set accepts any name, so keywords that double as names are noise. */
  protected abstract boolean acceptsAnyName(IntervalSet expected);

  /** A keyword the language also accepts as a name. */
  protected abstract boolean isSoftKeyword(int type);

  /** A lexical hint for the text where an unlexable token starts, or null for the common ones. */
  protected String lexicalHint(String head) {
    return null;
  }

  /** Words appended to a parse error's message (a hint at the commonest slip), or "". */
  protected String parseHint(Parser parser, Token found) {
    return "";
  }

  @Override
  public final void syntaxError(Recognizer<?, ?> recognizer, Object offendingSymbol, int line,
      int charPositionInLine, String msg, RecognitionException e) {
    int column = charPositionInLine + 1;
    if (recognizer instanceof Lexer lexer) {
      throw error(line, column, null, lexical(lexer));
    }
    Parser parser = (Parser) recognizer;
    Token found = (Token) offendingSymbol;
    IntervalSet expected = e != null && e.getExpectedTokens() != null ? e.getExpectedTokens() : parser.getExpectedTokens();
    throw error(line, column, parser,
        "unexpected " + describe(found) + "; expected " + expected(expected, parser.getVocabulary())
            + parseHint(parser, found));
  }

  private String lexical(Lexer lexer) {
    CharStream in = lexer.getInputStream();
    int start = lexer._tokenStartCharIndex;
    String head = in.getText(Interval.of(start, Math.min(start + 1, in.size() - 1)));
    if (head.startsWith("/*")) {
      return "unterminated block comment: '/*' has no closing '*/'";
    }
    if (head.startsWith("\"")) {
      return "unterminated string literal: missing closing '\"'";
    }
    String hint = lexicalHint(head);
    if (hint != null) {
      return hint;
    }
    int cp = head.codePointAt(0);
    String shown = Character.isISOControl(cp) || Character.isWhitespace(cp) || Character.isSurrogate((char) cp)
        ? String.format("U+%04X", cp) : "'" + new String(Character.toChars(cp)) + "'";
    return "unexpected character " + shown + " (names use ASCII letters, digits and '_'; text goes in double quotes)";
  }

  private static String describe(Token t) {
    return t.getType() == Token.EOF ? "end of input" : "'" + t.getText() + "'";
  }

  private String expected(IntervalSet set, Vocabulary vocabulary) {
    TreeSet<String> words = new TreeSet<>();
    boolean anyName = acceptsAnyName(set);
    for (int type : set.toList()) {
      if (anyName && isSoftKeyword(type)) {
        continue;
      }
      words.add(display(type, vocabulary));
    }
    List<String> list = new ArrayList<>(words);
    return list.size() == 1 ? list.get(0) : "one of " + String.join(", ", list);
  }

  private String display(int type, Vocabulary vocabulary) {
    if (type == Token.EOF) {
      return "end of input";
    }
    String kind = tokenKind(type);
    if (kind != null) {
      return kind;
    }
    String literal = vocabulary.getLiteralName(type);
    return literal != null ? literal : vocabulary.getSymbolicName(type);
  }
}
