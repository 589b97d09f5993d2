package dev.omnigraph.schema;

import dev.omnigraph.schema.grammar.OmniSchemaLexer;
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
 * Turns the first ANTLR syntax error into a {@link SchemaParseException} (ANTLR would otherwise print
 * to stderr and recover, producing a cascade of follow-on errors nobody can act on). The message
 * names what was found and what would have been accepted, in the schema's own words.
 */
final class SyntaxErrors extends BaseErrorListener {

  static final SyntaxErrors INSTANCE = new SyntaxErrors();

  private SyntaxErrors() {}

  @Override
  public void syntaxError(Recognizer<?, ?> recognizer, Object offendingSymbol, int line,
      int charPositionInLine, String msg, RecognitionException e) {
    int column = charPositionInLine + 1;
    if (recognizer instanceof Lexer lexer) {
      throw new SchemaParseException(line, column, lexical(lexer));
    }
    Parser parser = (Parser) recognizer;
    Token found = (Token) offendingSymbol;
    IntervalSet expected = e != null && e.getExpectedTokens() != null ? e.getExpectedTokens() : parser.getExpectedTokens();
    throw new SchemaParseException(line, column,
        "unexpected " + describe(found) + "; expected " + expected(expected, parser.getVocabulary()));
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
    int cp = head.codePointAt(0);
    String shown = Character.isISOControl(cp) || Character.isWhitespace(cp) || Character.isSurrogate((char) cp)
        ? String.format("U+%04X", cp) : "'" + new String(Character.toChars(cp)) + "'";
    return "unexpected character " + shown
        + " (names use ASCII letters, digits and '_'; text goes in double quotes)";
  }

  private static String describe(Token t) {
    if (t.getType() == Token.EOF) {
      return "end of input";
    }
    return "'" + t.getText() + "'";
  }

  private static String expected(IntervalSet set, Vocabulary vocabulary) {
    TreeSet<String> words = new TreeSet<>();
    // Where any name is accepted, the keywords that double as names are noise.
    boolean anyName = set.contains(OmniSchemaLexer.IDENT) && set.contains(OmniSchemaLexer.NODE);
    for (int type : set.toList()) {
      if (anyName && isKeyword(type)) {
        continue;
      }
      words.add(display(type, vocabulary));
    }
    List<String> list = new ArrayList<>(words);
    if (list.size() == 1) {
      return list.get(0);
    }
    return "one of " + String.join(", ", list);
  }

  private static boolean isKeyword(int type) {
    return type == OmniSchemaLexer.NODE || type == OmniSchemaLexer.EDGE || type == OmniSchemaLexer.INTERFACE
        || type == OmniSchemaLexer.IMPLEMENTS || type == OmniSchemaLexer.ENUM;
  }

  private static String display(int type, Vocabulary vocabulary) {
    return switch (type) {
      case Token.EOF -> "end of input";
      case OmniSchemaLexer.IDENT -> "a name";
      case OmniSchemaLexer.INT -> "an integer";
      case OmniSchemaLexer.FLOAT -> "a number";
      case OmniSchemaLexer.STRING -> "a string";
      default -> {
        String literal = vocabulary.getLiteralName(type);
        yield literal != null ? literal : vocabulary.getSymbolicName(type);
      }
    };
  }
}
