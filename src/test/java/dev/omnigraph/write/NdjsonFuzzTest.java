package dev.omnigraph.write;

import dev.omnigraph.api.LoadMode;
import static org.assertj.core.api.Assertions.assertThat;

import dev.omnigraph.schema.Catalog;
import dev.omnigraph.schema.SchemaParser;
import dev.omnigraph.testing.Fuzz;
import dev.omnigraph.testing.FuzzInputs;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Fuzzes the NDJSON load front end ({@link NdjsonInput#strictUtf8} then {@link NdjsonReader#read})
 * against the sample schemas: every input yields a batch or a {@link LoadInputError} naming a line
 * of the input; no other exception, no crash. Text read as a string and as its UTF-8 bytes has the
 * same outcome. Inputs are the sample loads with JSON-token edits, byte-level edits (invalid UTF-8),
 * random lines, arbitrary bytes and deep nesting. Seeded case loops ({@link Fuzz});
 * {@code -Domnigraph.fuzz.seed} and {@code -Domnigraph.fuzz.cases} vary them.
 */
class NdjsonFuzzTest {

  static final List<String> TOKENS = FuzzInputs.NDJSON_TOKENS;

  private static final List<Catalog> CATALOGS = List.of(
      SchemaParser.parse(FuzzInputs.resource("graphs/social.pg")),
      SchemaParser.parse(FuzzInputs.resource("graphs/people.pg")));

  private static final List<String> SAMPLES = List.of(FuzzInputs.resource("graphs/social.ndjson"),
      "{\"type\":\"Person\",\"data\":{\"name\":\"ann\",\"age\":1,\"email\":\"a@b\"}}\n"
          + "{\"type\":\"Company\",\"data\":{\"name\":\"acme\",\"founded\":\"2001-02-03\"}}\n"
          + "{\"edge\":\"WorksAt\",\"from\":\"ann\",\"to\":\"acme\",\"data\":{\"role\":\"x\"}}\n"
          + "{\"edge\":\"Knows\",\"from\":\"ann\",\"to\":\"ann\",\"data\":{\"since\":1}}\n");

  private static final byte[] SOCIAL = SAMPLES.get(0).getBytes(StandardCharsets.UTF_8);

  /** One load: its text or bytes, the catalog it is read against, the mode. */
  record Load(String text, byte[] bytes, int catalog, LoadMode mode) {
    static Load text(String text, int catalog, LoadMode mode) {
      return new Load(text, null, catalog, mode);
    }

    static Load bytes(byte[] bytes, int catalog, LoadMode mode) {
      return new Load(null, bytes, catalog, mode);
    }

    @Override
    public String toString() {
      return (text != null ? Fuzz.literal(text) : Fuzz.literal(bytes)) + " against catalog " + catalog + " in "
          + mode;
    }
  }

  /**
   * Reads {@code input}: a batch, or a {@link LoadInputError} whose line is one of the input's
   * ({@code lines} at most). Returns the error's message, or null for a batch.
   */
  static String readsOrRefuses(Reader input, long lines, int catalog, LoadMode mode) {
    try {
      assertThat(NdjsonReader.read(input, CATALOGS.get(catalog), mode)).isNotNull();
      return null;
    } catch (LoadInputError e) {
      assertThat(e.line()).as("line of %s", e.getMessage()).isBetween(1L, lines);
      assertThat(e.getMessage()).startsWith("line " + e.line() + ": ").hasSizeGreaterThan(("line " + e.line()
          + ": ").length());
      return e.getMessage();
    } catch (IOException e) {
      throw new AssertionError("an in-memory read cannot fail with I/O", e);
    }
  }

  /** Through the strict UTF-8 decoder, as the HTTP route and the CLI read a load. */
  static String readsOrRefuses(byte[] bytes, int catalog, LoadMode mode) {
    return readsOrRefuses(NdjsonInput.strictUtf8(new ByteArrayInputStream(bytes)), lines(bytes), catalog, mode);
  }

  /** The line count by any reader's terminators ({@code \n}, {@code \r}, {@code \r\n}), plus one. */
  static long lines(byte[] bytes) {
    long n = 1;
    for (int i = 0; i < bytes.length; i++) {
      if (bytes[i] == '\n' || (bytes[i] == '\r' && (i + 1 == bytes.length || bytes[i + 1] != '\n'))) {
        n++;
      }
    }
    return n;
  }

  /**
   * The text as a string, and as its UTF-8 bytes through the strict decoder: the same outcome,
   * word for word, whenever the text has a UTF-8 spelling (no unpaired surrogate, which
   * {@link String#getBytes} would replace by {@code ?}).
   */
  static void readsOrRefusesAlike(Load load) {
    byte[] utf8 = load.text().getBytes(StandardCharsets.UTF_8);
    String asText = readsOrRefuses(new StringReader(load.text()), lines(utf8), load.catalog(), load.mode());
    String asBytes = readsOrRefuses(utf8, load.catalog(), load.mode());
    if (new String(utf8, StandardCharsets.UTF_8).equals(load.text())) {
      assertThat(asBytes).as("decoded from UTF-8").isEqualTo(asText);
    }
  }

  static LoadMode mode(SplittableRandom r) {
    return FuzzInputs.pick(r, List.of(LoadMode.values()));
  }

  @Test
  void mutatedSampleLoadsReadOrFailTyped() {
    Fuzz.forAll("ndjson.mutated", 1500,
        r -> Load.text(FuzzInputs.mutated(r, SAMPLES, TOKENS, 5), r.nextInt(CATALOGS.size()), mode(r)),
        Load::toString, NdjsonFuzzTest::readsOrRefusesAlike);
  }

  @Test
  void byteEditedLoadsReadOrFailTyped() {
    Fuzz.forAll("ndjson.bytes-edited", 800, r -> Load.bytes(FuzzInputs.byteEdited(r, SOCIAL), 0, mode(r)),
        Load::toString, load -> readsOrRefuses(load.bytes(), load.catalog(), load.mode()));
  }

  @Test
  void randomLinesReadOrFailTyped() {
    Fuzz.forAll("ndjson.lines", 1000, r -> Load.text(FuzzInputs.ndjsonLines(r), 0, mode(r)), Load::toString,
        NdjsonFuzzTest::readsOrRefusesAlike);
  }

  @Test
  void arbitraryBytesReadOrFailTyped() {
    Fuzz.forAll("ndjson.arbitrary-bytes", 300, r -> Load.bytes(FuzzInputs.bytes(r, 256), 0, LoadMode.APPEND),
        Load::toString, load -> readsOrRefuses(load.bytes(), load.catalog(), load.mode()));
  }

  /** Past the JSON reader's depth limit (1,000) a line is refused as not JSON, never a stack overflow. */
  @Test
  void deepNestingReadsOrFailsTyped() {
    Fuzz.forAll("ndjson.nested", 30, r -> FuzzInputs.depth(r, 1000, 20_000), d -> "depth " + d, depth -> {
      readsOrRefusesAlike(Load.text("{\"type\":\"Person\",\"data\":{\"name\":\"a\",\"tags\":"
          + FuzzInputs.nested("[", "\"x\"", "]", depth) + "}}", 0, LoadMode.APPEND));
      readsOrRefusesAlike(Load.text("{\"type\":\"Person\",\"data\":{\"name\":"
          + FuzzInputs.nested("{\"a\":", "1", "}", depth) + "}}", 0, LoadMode.MERGE));
    });
  }
}
