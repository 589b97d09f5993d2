package dev.omnigraph.engine.gqt;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One parsed {@code .gqt} logic-test case (docs/testing.md, "Logic tests"): the schema, the seed
 * rows and the steps, loops already unrolled. Every step and expectation keeps the line it was
 * written on, so a failure names {@code file:line}.
 *
 * @param file the case's path as given (for messages)
 * @param schema the {@code .pg} text
 * @param seed the seed NDJSON (may be blank: nothing loaded)
 * @param seedLine the line of {@code --- seed}
 * @param steps the steps in run order
 */
public record GqtCase(String file, String schema, String seed, int seedLine, List<Step> steps) {

  public GqtCase {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(schema, "schema");
    Objects.requireNonNull(seed, "seed");
    steps = List.copyOf(steps);
  }

  /** Whether no step writes or reopens: such a case may share its seeded graph with others. */
  public boolean readOnly() {
    return steps.stream().allMatch(s -> s instanceof Query);
  }

  /** One step of a case. */
  public sealed interface Step permits Query, Mutate, Restart {
    /** The line of the step's {@code ---} header. */
    int line();
  }

  /**
   * {@code --- query [branch: B | commit: B~N]}: a read declaration or {@code branch list}.
   *
   * @param branch the branch read (main when not named)
   * @param commitsBack with {@code commit: B~N}, read the commit N steps back from B's head (our
   *     extension for time travel; the reference's format has none)
   * @param iteration the loop binding this copy of the step runs with, for messages ({@code $i=2})
   */
  public record Query(int line, String body, String branch, Optional<Integer> commitsBack, String params,
      Expect expect, Optional<Shape> shape, String iteration) implements Step {}

  /** {@code --- mutate [branch: B]}: a mutation declaration or a branch statement. */
  public record Mutate(int line, String body, String branch, String params, Expect expect, String iteration)
      implements Step {}

  /** {@code --- restart}: close the graph and open it again from the same root. */
  public record Restart(int line) implements Step {}

  /** What a step must answer. */
  public sealed interface Expect permits Rows, Ok, Affected, Error, Outcome {
    /** The line of the {@code --- expect} header. */
    int line();
  }

  /**
   * {@code --- expect unordered|ordered}: rows, one JSON object a line.
   *
   * @param rows the expected rows' JSON text, one per element
   * @param rowLines the line of each row
   */
  public record Rows(int line, boolean ordered, List<String> rows, List<Integer> rowLines) implements Expect {}

  /** {@code --- expect ok}: success, nothing else asserted. */
  public record Ok(int line) implements Expect {}

  /** {@code --- expect affected: nodes=N edges=M}. */
  public record Affected(int line, long nodes, long edges) implements Expect {}

  /** {@code --- expect error: fragment}: the step fails and its message contains the fragment. */
  public record Error(int line, String fragment) implements Expect {}

  /** {@code --- expect outcome: fast_forward|merged|already_up_to_date} (a branch merge). */
  public record Outcome(int line, String outcome) implements Expect {}

  /** {@code --- expect shape}: one {@code name: Type[?]} line per column. */
  public record Shape(int line, List<Column> columns) {}

  /** One shape line: a {@code ?} permits null cells; without it no cell may be null. */
  public record Column(int line, String name, String type, boolean nullable) {}
}
