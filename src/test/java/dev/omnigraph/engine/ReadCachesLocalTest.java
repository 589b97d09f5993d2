package dev.omnigraph.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omnigraph.query.QueryException;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.storage.StoreRequests;
import dev.omnigraph.api.LoadMode;
import java.nio.file.Files;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Issue 46: what a repeated read no longer redoes. A named read's parse and check are remembered
 * per schema identity (counted by the root's {@code CheckedReads}), and a schema apply is seen by
 * the next read exactly.
 */
class ReadCachesLocalTest extends AbstractGraphFixture {

  private static final String GQ = """
      query founded() {
        match { $c: Company }
        return { $c.name, $c.founded }
      }
      query names() {
        match { $c: Company }
        return { $c.name }
      }
      """;

  private static final String COMPANY_ACME = "{\"type\":\"Company\",\"data\":{\"name\":\"acme\",\"founded\":\"2001-02-03\"}}";
  private static final String COMPANY_ZETA = "{\"type\":\"Company\",\"data\":{\"name\":\"zeta\"}}";

  @Override
  protected StorageConfig newRoot() throws Exception {
    return StorageConfig.local(Files.createTempDirectory("graph"));
  }

  private List<String> run(Optional<String> branch, Optional<String> commit, String name) {
    return graph.query(branch.map(dev.omnigraph.api.BranchName::existing), commit.map(dev.omnigraph.api.CommitId::existing), GQ, name, new ObjectMapper().createObjectNode()).rows().stream()
        .map(r -> r.get("c.name") + ":" + r.get("c.founded")).sorted().toList();
  }

  private long checks() {
    return graph.schemas.checkedReads().checks();
  }

  @Test
  void aReadIsParsedAndCheckedOncePerSchemaAndASchemaApplyIsSeenByTheNextRead() {
    String before = load("main", LoadMode.APPEND, COMPANY_ACME, COMPANY_ZETA).commitId().orElseThrow();
    long start = checks();

    assertThat(run(Optional.empty(), Optional.empty(), "founded")).containsExactly("acme:2001-02-03", "zeta:null");
    assertThat(checks()).isEqualTo(start + 1);
    assertThat(run(Optional.empty(), Optional.empty(), "founded")).containsExactly("acme:2001-02-03", "zeta:null");
    assertThat(checks()).isEqualTo(start + 1);
    // Another name of the same source is another read.
    assertThat(run(Optional.empty(), Optional.empty(), "names")).containsExactly("acme:null", "zeta:null");
    assertThat(checks()).isEqualTo(start + 2);

    // Drop founded (soft): the remembered check of "founded" belongs to the old schema's identity.
    graph.schemaApply(AbstractGraphEngineTest.schemaText().replace("  founded: Date?\n", ""), false,
        Optional.of("act-test"));
    assertThatThrownBy(() -> run(Optional.empty(), Optional.empty(), "founded")).isInstanceOf(QueryException.class)
        .hasMessageContaining("founded");
    assertThat(run(Optional.empty(), Optional.empty(), "names")).containsExactly("acme:null", "zeta:null");
    assertThat(checks()).isEqualTo(start + 3);
    // The commit before the apply still reads with its own schema, checked once against it.
    assertThat(run(Optional.empty(), Optional.of(before), "founded")).containsExactly("acme:2001-02-03", "zeta:null");
    assertThat(run(Optional.empty(), Optional.of(before), "founded")).containsExactly("acme:2001-02-03", "zeta:null");
    assertThat(checks()).isEqualTo(start + 3);
  }

  private List<String> people(Optional<String> branch) {
    return graph.query(branch.map(dev.omnigraph.api.BranchName::existing), Optional.empty(), "query everyone() {\n  match { $p: Person }\n  return { $p.name }\n}\n",
        "everyone", new ObjectMapper().createObjectNode()).rows().stream().map(r -> (String) r.get("p.name"))
        .sorted().toList();
  }

  private static long manifestGets() {
    return StoreRequests.count(StoreRequests.Op.GET, StoreRequests.Kind.MANIFEST);
  }

  @Test
  void aBranchReadReusesItsCaptureWhileTheBranchIsUnchangedAndSeesEveryWrite() {
    load("main", LoadMode.APPEND, person("ann", 30));
    graph.branchCreate("feature", "main", Optional.of("act-test"));
    load("feature", LoadMode.APPEND, person("bob", 40));
    Optional<String> feature = Optional.of("feature");
    assertThat(people(feature)).containsExactly("ann", "bob");

    // Unchanged branch: its ref is not read again (the capture is the last read's).
    long gets = manifestGets();
    assertThat(people(feature)).containsExactly("ann", "bob");
    assertThat(manifestGets() - gets).isZero();

    // A write on the branch is seen by the next read, exactly; a write on main is not the branch's.
    load("feature", LoadMode.APPEND, person("cyd", 50));
    assertThat(people(feature)).containsExactly("ann", "bob", "cyd");
    load("main", LoadMode.APPEND, person("dee", 60));
    assertThat(people(feature)).containsExactly("ann", "bob", "cyd");
    assertThat(people(Optional.empty())).containsExactly("ann", "dee");

    // Deleted and re-created under the same name: the new branch, never the old capture.
    graph.branchDelete("feature", Optional.of("act-test"));
    assertThatThrownBy(() -> people(feature)).isInstanceOf(dev.omnigraph.api.NotFound.class);
    graph.branchCreate("feature", "main", Optional.of("act-test"));
    assertThat(people(feature)).containsExactly("ann", "dee");
  }
}
