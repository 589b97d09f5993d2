package dev.omnigraph.syntax;

import java.util.function.BiFunction;
import org.antlr.v4.runtime.CharStream;
import org.antlr.v4.runtime.Lexer;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.TokenFactory;
import org.antlr.v4.runtime.TokenSource;

/**
 * The tokens of a lexer, refused once brackets nest deeper than a limit. Every unbounded recursion of
 * our grammars (a {@code not} block, a list type, a list literal) opens a bracket, so bounding bracket
 * depth bounds the parser's, the checker's and the executor's recursion: about 3,000 nested
 * {@code not} blocks or {@code [} overflowed the thread stack (a 500, or a crashed CLI) before this.
 * Counting as the parser pulls tokens, rather than in a pass of its own, lets a syntax error earlier in
 * the text still be reported first.
 */
public final class BracketDepthLimit implements TokenSource {

  private final Lexer lexer;
  private final int limit;
  private final int[] opens;
  private final int[] closes;
  private final BiFunction<Token, Integer, RuntimeException> tooDeep;
  private int depth;

  /**
   * @param opens the token types that open a bracket ({@code { [ (})
   * @param closes the token types that close one
   * @param tooDeep the language's own error for the token that went one level too deep, given the limit
   */
  public BracketDepthLimit(Lexer lexer, int limit, int[] opens, int[] closes,
      BiFunction<Token, Integer, RuntimeException> tooDeep) {
    this.lexer = lexer;
    this.limit = limit;
    this.opens = opens.clone();
    this.closes = closes.clone();
    this.tooDeep = tooDeep;
  }

  @Override
  public Token nextToken() {
    Token t = lexer.nextToken();
    int type = t.getType();
    if (contains(opens, type)) {
      if (++depth > limit) {
        throw tooDeep.apply(t, limit);
      }
    } else if (contains(closes, type)) {
      depth = Math.max(0, depth - 1);
    }
    return t;
  }

  private static boolean contains(int[] types, int type) {
    for (int t : types) {
      if (t == type) {
        return true;
      }
    }
    return false;
  }

  @Override
  public int getLine() {
    return lexer.getLine();
  }

  @Override
  public int getCharPositionInLine() {
    return lexer.getCharPositionInLine();
  }

  @Override
  public CharStream getInputStream() {
    return lexer.getInputStream();
  }

  @Override
  public String getSourceName() {
    return lexer.getSourceName();
  }

  @Override
  public void setTokenFactory(TokenFactory<?> factory) {
    lexer.setTokenFactory(factory);
  }

  @Override
  public TokenFactory<?> getTokenFactory() {
    return lexer.getTokenFactory();
  }
}
