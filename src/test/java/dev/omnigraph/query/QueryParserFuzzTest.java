package dev.omnigraph.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omnigraph.schema.Catalog;
import dev.omnigraph.schema.SchemaParser;
import dev.omnigraph.testing.Fuzz;
import dev.omnigraph.testing.FuzzInputs;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Fuzzes the {@code .gq} front end: {@link QueryParser#parse} and, for what parses,
 * {@link QueryChecker#check} against the sample schemas. Every input yields a result or a
 * {@link QueryException} (parse, parameter or unknown-query error; a {@link QueryParseException}
 * positioned inside the input); no other exception, no crash. Seeded case loops ({@link Fuzz});
 * {@code -Domnigraph.fuzz.seed} and {@code -Domnigraph.fuzz.cases} vary them.
 */
class QueryParserFuzzTest {

  static final List<String> TOKENS = List.of("query", "match", "return", "order", "limit", "insert", "update",
      "delete", "set", "where", "not", "contains", "as", "asc", "desc", "{", "}", "(", ")", "[", "]", ":", ",",
      ".", "=", "!=", "<", "<=", ">", ">=", "$p", "$q", "$name", "$age", "Person", "Company", "Knows", "WorksAt",
      "name", "age", "tags", "from", "to", "\"x\"", "\"\\n\"", "\"\\u00e9\"", "\"\\ud800\"", "\"\\q\"", "0", "-1",
      "1.5", "1e309", "99999999999999999999", "true", "false", "null", "String", "I32", "I64", "F64", "Bool",
      "Date", "?", "count", "sum", "avg", "min", "max", "$p.name", "$p.age", "->", "<-", "-[", "]->");

  private static final List<String> SAMPLES = FuzzInputs.samples(".gq");

  private static final List<Catalog> CATALOGS = List.of(
      SchemaParser.parse(FuzzInputs.resource("graphs/people.pg")),
      SchemaParser.parse(FuzzInputs.resource("graphs/social.pg")));

  /** Nesting depth explored: far past {@link QueryParser#MAX_NESTING} (2,000 nested {@code [} overflowed before it). */
  static final int NEST_MAX = 20_000;

  static void parsesOrRefuses(String source) {
    QueryFile file;
    try {
      file = QueryParser.parse(source);
    } catch (QueryException e) {
      typed(e, source);
      return;
    }
    for (String name : file.names()) {
      for (Catalog catalog : CATALOGS) {
        try {
          assertThat(QueryChecker.check(file.declaration(name), catalog)).isNotNull();
        } catch (QueryException e) {
          typed(e, source);
        }
      }
    }
  }

  /** A refusal has a message, and a parse or type error points at a line and column of the source. */
  private static void typed(QueryException e, String source) {
    assertThat(e.getMessage()).isNotBlank();
    if (e instanceof QueryParseException p) {
      assertThat(p.line()).as("line of %s", e.getMessage()).isBetween(1, lines(source));
      assertThat(p.column()).as("column of %s", e.getMessage()).isPositive();
      assertThat(e.getMessage()).startsWith(p.line() + ":" + p.column() + ": ");
    }
  }

  /** Lines as the lexer counts them: one more than the line feeds. */
  static int lines(String source) {
    return (int) source.chars().filter(c -> c == '\n').count() + 1;
  }

  @Test
  void mutatedSampleQueriesParseAndCheckOrFailTyped() {
    Fuzz.forAll("gq.mutated", 1500, r -> FuzzInputs.mutated(r, SAMPLES, TOKENS, 4), Fuzz::literal,
        QueryParserFuzzTest::parsesOrRefuses);
  }

  @Test
  void tokenSoupsParseOrFailTyped() {
    Fuzz.forAll("gq.soup", 1000, r -> "query q($name: String) { " + FuzzInputs.tokenSoup(r, TOKENS, 60) + " }",
        Fuzz::literal, QueryParserFuzzTest::parsesOrRefuses);
  }

  @Test
  void arbitraryTextParsesOrFailsTyped() {
    Fuzz.forAll("gq.text", 300, r -> FuzzInputs.text(r, 256), Fuzz::literal, QueryParserFuzzTest::parsesOrRefuses);
  }

  /**
   * Depths up to {@link #NEST_MAX}, the limit's neighbourhood always among them. Past
   * {@link QueryParser#MAX_NESTING} brackets (the query's and the match's braces count) nothing
   * parses; none of it is a {@link StackOverflowError} in the parser or the checker.
   */
  @Test
  void deepNestingParsesOrFailsTyped() {
    Fuzz.forAll("gq.nested", 30, r -> FuzzInputs.depth(r, QueryParser.MAX_NESTING, NEST_MAX), d -> "depth " + d,
        depth -> {
          for (String source : List.of(
              "query q() { match { $p: Person " + FuzzInputs.nested("not { ", "$p.age > 1", " }", depth)
                  + " } return { $p.name } }",
              "query q() { match { $p: Person " + FuzzInputs.nested("[", "\"a\"", "]", depth)
                  + " contains $p.name } return { $p.name } }",
              "query q() { match { $p: Person " + FuzzInputs.nested("(", "$p.age", ")", depth)
                  + " > 1 } return { $p.name } }")) {
            parsesOrRefuses(source);
            if (depth + 2 > QueryParser.MAX_NESTING) {
              assertThat(parses(source)).as("parses at depth %d: %s", depth, source.substring(0, 40)).isFalse();
            }
          }
        });
  }

  private static boolean parses(String source) {
    try {
      QueryParser.parse(source);
      return true;
    } catch (QueryException e) {
      return false;
    }
  }

  @Test
  void oddCharactersInStringsAndNamesParseOrFailTyped() {
    Fuzz.forAll("gq.odd", 200, FuzzInputs::odd, Fuzz::literal, odd -> {
      parsesOrRefuses("query q() { match { $p: Person { name: \"" + odd + "\" } } return { $p.name } }");
      parsesOrRefuses("query q" + odd + "() { match { $p: Person } return { $p.name } }");
      parsesOrRefuses("query q() { insert Person { name: \"" + odd + "\" } }");
    });
  }
}
