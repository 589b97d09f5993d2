package dev.omnigraph.write;

import dev.omnigraph.api.LoadMode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.omnigraph.schema.Catalog;
import dev.omnigraph.schema.SchemaParser;
import dev.omnigraph.testing.FuzzInputs;
import java.io.StringReader;
import org.junit.jupiter.api.Test;

/**
 * Issue 44 items 6 and 7, for every NDJSON load (CLI and HTTP share this reader): a key given twice
 * in one object is refused naming the line, where it was loaded as its last value; and what is
 * wrong with a line is said in our words with the line and the limit, never in the JSON library's
 * ({@code StreamReadConstraints.getMaxNestingDepth()}).
 */
class NdjsonStrictTest {

  private static final Catalog PEOPLE = SchemaParser.parse(FuzzInputs.resource("graphs/people.pg"));

  private static LoadInputError refusal(String ndjson) {
    Throwable t = org.assertj.core.api.Assertions.catchThrowable(
        () -> NdjsonReader.read(new StringReader(ndjson), PEOPLE, LoadMode.MERGE));
    assertThat(t).isInstanceOf(LoadInputError.class);
    LoadInputError e = (LoadInputError) t;
    assertThat(e.getMessage()).doesNotContain("StreamReadConstraints", "`", "Source:", "com.fasterxml", "JsonToken");
    return e;
  }

  @Test
  void aKeyGivenTwiceIsRefusedNamingItsLineAtAnyDepth() {
    LoadInputError e = refusal("{\"type\":\"Person\",\"data\":{\"name\":\"L8\"}}\n"
        + "{\"type\":\"Person\",\"data\":{\"name\":\"L9\",\"name\":\"L10\"}}\n");
    assertThat(e.line()).isEqualTo(2);
    assertThat(e).hasMessage("line 2: field 'name' appears twice in one object at column 38");
    assertThat(refusal("{\"type\":\"Person\",\"type\":\"Company\",\"data\":{\"name\":\"x\"}}"))
        .hasMessage("line 1: field 'type' appears twice in one object at column 18");
    assertThat(refusal("{\"edge\":\"Knows\",\"from\":\"a\",\"to\":\"b\",\"data\":{\"since\":1,\"since\":2}}"))
        .hasMessageStartingWith("line 1: field 'since' appears twice in one object");
    // The same name in sibling objects, or in an object and the array beside it, is not a repeat.
    assertThatCode(() -> NdjsonReader.read(new StringReader(
        "{\"type\":\"Person\",\"data\":{\"name\":\"a\"}}\n{\"type\":\"Person\",\"data\":{\"name\":\"b\"}}"),
        PEOPLE, LoadMode.MERGE)).doesNotThrowAnyException();
  }

  /** Issue 45: an unknown type names the line and, for a slip, the type that was meant. */
  @Test
  void anUnknownTypeGetsDidYouMean() {
    assertThat(refusal("{\"type\":\"Person\",\"data\":{\"name\":\"a\"}}\n{\"type\":\"Persn\",\"data\":{\"name\":\"b\"}}"))
        .hasMessage("line 2: unknown node type 'Persn' (did you mean Person?)");
    assertThat(refusal("{\"type\":\"person\",\"data\":{\"name\":\"b\"}}"))
        .hasMessage("line 1: unknown node type 'person' (did you mean Person?)");
    assertThat(refusal("{\"type\":\"Robot\",\"data\":{\"name\":\"b\"}}"))
        .hasMessage("line 1: unknown node type 'Robot'");
    assertThat(refusal("{\"edge\":\"Knwos\",\"from\":\"a\",\"to\":\"b\"}"))
        .hasMessage("line 1: unknown edge type 'Knwos' (did you mean Knows?)");
  }

  @Test
  void readerLimitsAndSyntaxErrorsAreSaidInOurWordsWithTheLineAndTheLimit() {
    assertThat(refusal("\n{\"type\":\"Person\",\"data\":{\"name\":" + "[".repeat(2_000) + "}}"))
        .hasMessageStartingWith("line 2: nested 1001 levels deep, over the limit of 1000 at column ");
    assertThat(refusal("{\"type\":\"Person\",\"data\":{\"name\":\"a\",\"age\":" + "9".repeat(1_001) + "}}"))
        .hasMessageStartingWith("line 1: a number is 1001 characters, over the limit of 1000");
    assertThat(refusal("{\"type\":\"Person\",\"data\":{\"name\":\"a\""))
        .hasMessageStartingWith("line 1: the JSON ends before it is complete (an object, array or string is left open)");
    assertThat(refusal("{\"type\":\"Person\",\"data\":{\"name\":tru}}"))
        .hasMessageStartingWith("line 1: not valid JSON at column ");
  }
}
