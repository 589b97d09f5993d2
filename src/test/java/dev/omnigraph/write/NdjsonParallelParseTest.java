package dev.omnigraph.write;

import dev.omnigraph.api.TableKey;
import dev.omnigraph.api.LoadMode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.omnigraph.api.ResourceLimitExceeded;
import dev.omnigraph.schema.Catalog;
import dev.omnigraph.schema.SchemaParser;
import dev.omnigraph.testing.FuzzInputs;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Issue 46: an input of more than one block of lines is parsed on several threads and replayed in
 * input order, so what the load sees is exactly what a line-by-line read hands it: rows in input
 * order, each row's type admitted in order, the first error of the input (not the first a thread
 * met) with its line, and the keyed-plan bound at the row that crosses it.
 */
class NdjsonParallelParseTest {

  private static final Catalog PEOPLE = SchemaParser.parse(FuzzInputs.resource("graphs/people.pg"));
  private static final int LINES = 10_000;

  private static List<String> persons() {
    return new ArrayList<>(IntStream.range(0, LINES)
        .mapToObj(i -> "{\"type\":\"Person\",\"data\":{\"name\":\"p" + i + "\",\"age\":" + (i % 90) + "}}").toList());
  }

  private static LoadBatch read(List<String> lines, LoadMode mode, List<Long> admitted) throws Exception {
    return NdjsonReader.read(new StringReader(String.join("\n", lines)), 1, PEOPLE, mode,
        (type, line) -> admitted.add(line));
  }

  @Test
  void rowsAndAdmissionsKeepInputOrder() throws Exception {
    List<Long> admitted = new ArrayList<>();
    LoadBatch batch = read(persons(), LoadMode.OVERWRITE, admitted);
    assertThat(List.copyOf(batch.rows().get(TableKey.node("Person")).values()).stream().map(r -> r.get("name")).toList())
        .isEqualTo(IntStream.range(0, LINES).mapToObj(i -> "p" + i).toList());
    assertThat(admitted).isEqualTo(IntStream.rangeClosed(1, LINES).mapToObj(i -> (long) i).toList());
  }

  @Test
  void theFirstErrorOfTheInputIsTheOneThrownWhateverThreadMetItFirst() throws Exception {
    List<String> lines = persons();
    lines.set(9_499, "{\"type\":\"Person\",\"data\":{\"name\":\"late\",\"nope\":1}}");
    lines.set(4_999, "{\"type\":\"Person\",\"data\":{\"name\":\"early\",\"nope\":1}}");
    lines.set(7_999, "x".repeat(WriteLimits.MAX_NDJSON_LINE_BYTES + 1));
    List<Long> admitted = new ArrayList<>();
    LoadInputError e = catchThrowableOfType(() -> read(lines, LoadMode.OVERWRITE, admitted), LoadInputError.class);
    assertThat(e.line()).isEqualTo(5_000);
    assertThat(e.getMessage()).contains("Person has no property 'nope'");
    // Every line up to the failing one was admitted (its type resolved before its data failed), none after.
    assertThat(admitted).hasSize(5_000).last().isEqualTo(5_000L);

    lines.set(4_999, lines.get(4_998).replace("p4998", "p4999"));
    lines.set(9_499, lines.get(9_498).replace("p9498", "p9499"));
    ResourceLimitExceeded tooLong = catchThrowableOfType(() -> read(lines, LoadMode.OVERWRITE, new ArrayList<>()),
        ResourceLimitExceeded.class);
    assertThat(tooLong.getMessage()).contains("refused at line 8000");
  }

  @Test
  void theKeyedPlanBoundIsRefusedAtTheRowThatCrossesIt() {
    ResourceLimitExceeded e = catchThrowableOfType(() -> read(persons(), LoadMode.MERGE, new ArrayList<>()),
        ResourceLimitExceeded.class);
    assertThat(e.getMessage()).contains("refused at line " + (WriteLimits.MAX_KEYED_ROWS + 1) + ", the "
        + (WriteLimits.MAX_KEYED_ROWS + 1) + "th Person row");
  }
}
