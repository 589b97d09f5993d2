package dev.omnigraph.engine.gqt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The .gqt reader's refusals (exact file:line messages) and the row comparison, without a graph. */
class GqtParserTest {

  private static final String HEAD = """
      # issue: none
      --- schema
      node A { k: String @key }
      --- seed
      """;

  private static String refusal(String text) {
    try {
      GqtParser.parse("c.gqt", text);
    } catch (GqtFormatError e) {
      return e.getMessage();
    }
    throw new AssertionError("accepted: " + text);
  }

  @Test
  void refusalsNameTheFileAndLine() {
    assertThat(refusal(HEAD + "--- query\nquery q() { match { $a: A } return { $a.k } }\n"))
        .isEqualTo("c.gqt:5: '--- query' needs an '--- expect' section: a step nobody asserts hides regressions");
    assertThat(refusal(HEAD + "--- query\nquery q() { match { $a: A } return { $a.k } }\n--- expect error:\n"))
        .isEqualTo("c.gqt:7: 'expect error:' names a fragment of the message: any error would pass otherwise");
    assertThat(refusal(HEAD + "--- query\nquery q() { match { $a: A } return { $a.k } }\n--- expect unordered\n[1]\n"))
        .isEqualTo("c.gqt:8: an expected row is one JSON object");
    assertThat(refusal(HEAD + "--- qurey\nx\n")).isEqualTo("c.gqt:5: unknown section '--- qurey'");
    assertThat(refusal("--- seed\n")).isEqualTo("c.gqt:1: a case starts with '--- schema' (after an optional '--- runner')");
    assertThat(refusal(HEAD + "--- mutate\nquery m() { insert A { k: \"${x}\" } }\n--- expect ok\n"))
        .isEqualTo("c.gqt:6: '${' outside a params or expect body; pass loop values as params");
    assertThat(refusal(HEAD + "--- loop $i 0 0\n--- mutate\nquery m() { insert A { k: \"a\" } }\n--- expect ok\n"
        + "--- endloop\n")).isEqualTo("c.gqt:5: a loop with no iteration asserts nothing");
    assertThat(refusal(HEAD.replace("--- seed\n", "--- seed\n") + "--- mutate\nquery m() { insert A { k: \"a\" } }\n"
        + "--- expect unordered\n")).isEqualTo("c.gqt:7: a mutation has no rows; expect ok, affected, error or outcome");
    assertThat(refusal(HEAD + "--- restart\n")).isEqualTo("c.gqt:4: a case needs at least one '--- query' or '--- mutate' step");
    assertThat(refusal("# issue: none\r\n")).isEqualTo("c.gqt:1: a carriage return; .gqt files use \\n line endings");
  }

  @Test
  void referenceSectionsNotImplementedAreUnsupported() {
    assertThatThrownBy(() -> GqtParser.parse("c.gqt", HEAD + "--- seam\nat: x\n--- mutate\nquery m() { insert A { k: \"a\" } }\n"
        + "--- expect ok\n")).isInstanceOf(GqtFormatError.Unsupported.class).hasMessage("c.gqt:5: unsupported: --- seam");
    assertThatThrownBy(() -> GqtParser.parse("c.gqt", "# traversal: csr\n" + HEAD))
        .isInstanceOf(GqtFormatError.Unsupported.class)
        .hasMessage("c.gqt:1: unsupported: # traversal: (a traversal-mode pin)");
  }

  @Test
  void loopsUnrollWithTheValueInParamsAndExpectationsOnly() {
    GqtCase c = GqtParser.parse("c.gqt", "--- runner\ntimeout_ms: 10000\n" + HEAD
        + "--- foreach $who ann bo\n--- query branch: side\nquery q($k: String) { match { $a: A { k: $k } } return { $a.k } }\n"
        + "--- params\n{\"k\": \"${who}\"}\n--- expect unordered\n{\"a.k\": \"${who}\"}\n--- expect shape\na.k: String\n"
        + "--- endloop\n--- restart\n--- query commit: main~2\nquery q() { match { $a: A } return { $a.k } }\n"
        + "--- expect ordered\n");
    assertThat(c.steps()).hasSize(4);
    GqtCase.Query second = (GqtCase.Query) c.steps().get(1);
    assertThat(second.params()).isEqualTo("{\"k\": \"bo\"}");
    assertThat(second.branch()).isEqualTo("side");
    assertThat(second.iteration()).isEqualTo("$who=bo");
    assertThat(((GqtCase.Rows) second.expect()).rows()).containsExactly("{\"a.k\": \"bo\"}");
    assertThat(second.shape().orElseThrow().columns()).containsExactly(new GqtCase.Column(15, "a.k", "String", false));
    assertThat(c.steps().get(2)).isEqualTo(new GqtCase.Restart(17));
    GqtCase.Query back = (GqtCase.Query) c.steps().get(3);
    assertThat(back.branch()).isEqualTo("main");
    assertThat(back.commitsBack()).contains(2);
    assertThat(c.readOnly()).isFalse();
  }

  @Test
  void rowsCompareByValueAndReportTheDifference() {
    // 2 equals 2.0, keys in any order, a null cell equals an absent key; U64 values stay exact.
    assertThat(GqtRows.canonical("{\"b\": 2, \"a\": null, \"c\": 18446744073709551615}"))
        .isEqualTo(GqtRows.canonical(java.util.Map.of("b", 2.0, "c", new java.math.BigInteger("18446744073709551615"))));
    assertThat(GqtRows.canonical("{\"x\": 18446744073709551615}"))
        .isNotEqualTo(GqtRows.canonical("{\"x\": 18446744073709551614}"));
    // An F32 cell is its 32-bit spelling; the double of the same float is not.
    assertThat(GqtRows.canonical(java.util.Map.of("f", 0.1f))).isEqualTo(GqtRows.canonical("{\"f\": 0.1}"));
    assertThat(GqtRows.canonical(java.util.Map.of("f", (double) 0.1f))).isNotEqualTo(GqtRows.canonical("{\"f\": 0.1}"));
    assertThat(GqtRows.diff(List.of("{a}", "{a}"), List.of("{a}", "{a}"), false)).isNull();
    assertThat(GqtRows.diff(List.of("{a}", "{a}"), List.of("{a}", "{b}"), false)).isEqualTo("""
        rows differ (unordered): expected 2 rows, got 2
          - {a}   (expected, missing)
          + {b}   (actual, not expected)
        """);
    assertThat(GqtRows.diff(List.of("{a}", "{b}"), List.of("{b}", "{a}"), true)).isEqualTo("""
        rows differ from position 1 (ordered)
        expected (2 rows):
          > {a}
            {b}
        actual (2 rows):
          > {b}
            {a}
        """);
  }
}
