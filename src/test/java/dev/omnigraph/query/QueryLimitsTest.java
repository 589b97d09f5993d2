package dev.omnigraph.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/**
 * Inputs that used to overflow the thread stack or leak an internal error (issue 12): deep bracket
 * nesting and unpaired surrogates are positioned, typed rejections, and the nesting limit is exact.
 */
class QueryLimitsTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static QueryParseException parseError(String source) {
    QueryParseException e = catchThrowableOfType(QueryParseException.class, () -> {
      for (Declaration d : QueryParser.parse(source).declarations()) {
        QueryChecker.check(d, Fixtures.CATALOG);
      }
    });
    assertThat(e).as("expected a rejection").isNotNull();
    return e;
  }

  /** {@code query q() { match { $p: Person } + n nested not blocks}, on one line. */
  private static String nestedNots(int n) {
    return "query q() { match { $p: Person " + "not { $p.age > 1 ".repeat(n) + "}".repeat(n) + " } return { $p.name } }";
  }

  @Test
  void threeThousandNestedNotBlocksAreRefusedAtTheFirstBracketPastTheLimit() {
    // Before: StackOverflowError in the parser (HTTP 500).
    String source = nestedNots(3_000);
    QueryParseException e = parseError(source);
    // query { is level 1, match { level 2, so the 63rd not's brace is level 65.
    int column = ("query q() { match { $p: Person " + "not { $p.age > 1 ".repeat(62) + "not ").length() + 1;
    assertThat(e.line()).isEqualTo(1);
    assertThat(e.column()).isEqualTo(column);
    assertThat(e.query()).isNull();
    assertThat(e.reason()).isEqualTo(
        "'{' nests deeper than 64 levels of brackets ({ [ ( together), the query language's limit");
    assertThat(e.getMessage()).startsWith("1:" + column + ": ");
  }

  @Test
  void nestingUpToTheLimitParsesAndChecks() {
    assertThat(QueryParser.MAX_NESTING).isEqualTo(64);
    CheckedRead read = Fixtures.read(nestedNots(62));
    assertThat(read.name()).isEqualTo("q");
    assertThat(parseError(nestedNots(63)).column()).isPositive();
  }

  @Test
  void twentyThousandNestedListBracketsAreRefusedWithTheirPosition() {
    // A list literal and a parameter's list type: both rules recurse on '['.
    String literal = "query q() {\n  match { $p: Person  $p.name = " + "[".repeat(20_000) + "1" + "]".repeat(20_000)
        + " } return { $p.name } }";
    QueryParseException e = parseError(literal);
    assertThat(e.line()).isEqualTo(2);
    // query { and match { are levels 1 and 2: the 63rd '[' is level 65.
    assertThat(e.column()).isEqualTo("  match { $p: Person  $p.name = ".length() + 63);
    assertThat(e.reason()).startsWith("'[' nests deeper than 64 levels");

    String type = "query q($x: " + "[".repeat(20_000) + "String" + "]".repeat(20_000) + ") { match { $p: Person } return { $p.name } }";
    QueryParseException t = parseError(type);
    // q( is level 1: the 64th '[' is level 65.
    assertThat(t.column()).isEqualTo("query q($x: ".length() + 64);
    assertThat(t.reason()).startsWith("'[' nests deeper than 64 levels");
  }

  @Test
  void anEarlierSyntaxErrorIsReportedBeforeTheNestingLimit() {
    QueryParseException e = parseError("query q() { match { $p Person } " + "[".repeat(100));
    assertThat(e.reason()).isEqualTo("unexpected '}'; expected one of '{', a $variable (to bind $p to the type Person,"
        + " write $p: Person)");
  }

  @Test
  void anUnpairedSurrogateInAStringLiteralIsRefusedAtItsPosition() {
    QueryParseException e = parseError("query q() {\n  match { $p: Person { name: \"ab\uD800c\" } } return { $p.name } }");
    assertThat(e.line()).isEqualTo(2);
    assertThat(e.column()).isEqualTo("  match { $p: Person { name: \"ab".length() + 1);
    assertThat(e.reason()).isEqualTo("unpaired surrogate U+D800 in string");
    // A proper pair is one character, and one column.
    CheckedRead ok = Fixtures.read("query q() { match { $p: Person { name: \"\uD83D\uDE00\" } } return { $p.name } }");
    assertThat(ok.name()).isEqualTo("q");
  }

  @Test
  void anUnpairedSurrogateInAParameterIsATypedErrorNamingIt() throws Exception {
    // Before: IllegalArgumentException from the filter's literal rendering (HTTP 500).
    CheckedQuery q = Fixtures.check("query q($name: String, $names: [String]) { match { $p: Person { name: $name } }"
        + " return { $p.name } }");
    QueryParamException e = catchThrowableOfType(QueryParamException.class,
        () -> Params.bind(q, JSON.readTree("{\"name\": \"x\\ud800\", \"names\": []}")));
    assertThat(e.param()).isEqualTo("name");
    assertThat(e.getMessage()).isEqualTo("query 'q': parameter $name: unpaired surrogate U+D800 at character 1;"
        + " strings must be valid Unicode");
    QueryParamException inList = catchThrowableOfType(QueryParamException.class,
        () -> Params.bind(q, JSON.readTree("{\"name\": \"x\", \"names\": [\"ok\", \"\\udc00\"]}")));
    assertThat(inList.param()).isEqualTo("names");
    assertThat(inList.getMessage()).isEqualTo("query 'q': parameter $names: element 1: unpaired surrogate U+DC00"
        + " at character 0; strings must be valid Unicode");
    assertThat(Params.bind(q, JSON.readTree("{\"name\": \"\\ud83d\\ude00\", \"names\": []}")).get("name"))
        .isEqualTo("\uD83D\uDE00");
  }
}
