package dev.omnigraph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omnigraph.api.SchemaApplyOutput;
import dev.omnigraph.api.SchemaStep;
import dev.omnigraph.schema.SchemaParser;
import dev.omnigraph.schema.SchemaPlanner;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A remote {@code schema apply} reads {@link SchemaApplyOutput} back from JSON as {@link RemoteGraph}
 * does: every step kind must come back equal and describe itself in the same line as locally (a
 * constraint's display is not on the wire, so it is spelt again from the constraint).
 */
class SchemaStepJsonTest {

  private static final ObjectMapper REMOTE = new ObjectMapper()
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  @Test
  void everyStepReadBackFromTheWireDescribesItselfAsLocally() throws Exception {
    String accepted = """
        interface Named { name: String }
        node Person implements Named {
          name: String @key
          age: I32?
          email: String?
          nick: String?
          mood: enum(happy, sad)?
        }
        node Gone { name: String @key }
        edge Knows: Person -> Person { since: I64? }
        """;
    String desired = """
        interface Named { name: String }
        node Person implements Named @description("people") {
          name: String @key
          years: I32? @rename_from("age")
          email: String? @description("mail")
          mood: enum(happy, sad, calm)?
          tags: [String]?
          vec: Vector(4)?
          score: F64?
          @unique(email)
          @index(name, email)
          @range(years, 0..150)
          @range(score, 1.5..)
          @check(email, "^[^@]+@[^@]+$")
        }
        node City { name: String @key }
        edge Knows: Person -> Person { since: I64? }
        """;
    List<SchemaStep> steps = SchemaPlanner.plan(SchemaParser.parse(accepted), SchemaParser.parse(desired));
    assertThat(steps).extracting(s -> s.getClass().getSimpleName()).contains("AddType", "RenameProperty",
        "AddProperty", "AddConstraint", "ExtendEnum", "UpdateTypeMetadata", "UpdatePropertyMetadata", "DropType",
        "DropProperty");
    SchemaApplyOutput local = new SchemaApplyOutput("file:///g", true, true, steps.size(), 7, steps, "c1",
        List.of("node:Gone"));
    SchemaApplyOutput remote = REMOTE.readValue(REMOTE.writeValueAsBytes(local), SchemaApplyOutput.class);
    assertThat(remote.steps().stream().map(SchemaStep::describe).toList())
        .isEqualTo(steps.stream().map(SchemaStep::describe).toList());
    assertThat(remote.steps().stream().map(SchemaStep::describe).toList())
        .contains("add constraint @range(score, 1.5..) on node 'Person'")
        .contains("add constraint @check(email, \"^[^@]+@[^@]+$\") on node 'Person'");
    assertThat(remote.graphCommitId()).isEqualTo("c1");
    assertThat(remote.hardDropped()).containsExactly("node:Gone");
    assertThat(REMOTE.writeValueAsString(remote)).isEqualTo(REMOTE.writeValueAsString(local));
  }

  @Test
  void theReferenceShapeWithoutOurFieldsReadsBack() throws Exception {
    SchemaApplyOutput reference = REMOTE.readValue("""
        {"uri":"s3://b/g","supported":true,"applied":false,"step_count":0,"graph_manifest_version":3,"steps":[]}
        """, SchemaApplyOutput.class);
    assertThat(reference.graphCommitId()).isNull();
    assertThat(reference.hardDropped()).isEmpty();
    assertThat(REMOTE.writeValueAsString(reference)).doesNotContain("graph_commit_id").doesNotContain("hard_dropped");
  }
}
