package dev.omnigraph.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omnigraph.api.NotFound;
import dev.omnigraph.api.ReadOutput;
import dev.omnigraph.manifest.ManifestTestSupport;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.api.LoadMode;
import java.nio.file.Files;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Issue 46, item 4: a read at an older commit resolves the commit once per root. The second read at
 * the same commit decodes no manifest row (no lineage scan, no state read: the evidence is the
 * exact decoded-row count, not a timing), still answers the commit's rows after later writes, and
 * a branch deleted and re-created under the same name does not answer for the old branch's commit.
 */
class OlderCommitReadLocalTest extends AbstractGraphFixture {

  private static final String GQ = "query everyone() {\n  match { $p: Person }\n  return { $p.name }\n}\n";

  @Override
  protected StorageConfig newRoot() throws Exception {
    return StorageConfig.local(Files.createTempDirectory("graph"));
  }

  private List<String> names(Optional<String> branch, Optional<String> commit) {
    ReadOutput out = graph.query(branch.map(dev.omnigraph.api.BranchName::existing), commit.map(dev.omnigraph.api.CommitId::existing), GQ, "everyone", new ObjectMapper().createObjectNode());
    return out.rows().stream().map(r -> (String) r.get("p.name")).sorted().toList();
  }

  /** Runs {@code read} and returns the manifest rows it decoded. */
  private static long decoded(Runnable read) {
    long before = ManifestTestSupport.decodedRows();
    read.run();
    return ManifestTestSupport.decodedRows() - before;
  }

  @Test
  void aSecondReadAtAnOlderCommitReadsNoLineageAndAnswersTheOldRowsAfterLaterWrites() {
    String older = load("main", LoadMode.APPEND, person("ann", 30), person("bob", 40)).commitId().orElseThrow();
    load("main", LoadMode.APPEND, person("cyd", 50));
    Optional<String> at = Optional.of(older);

    assertThat(decoded(() -> assertThat(names(Optional.empty(), at)).containsExactly("ann", "bob"))).isPositive();
    assertThat(decoded(() -> assertThat(names(Optional.empty(), at)).containsExactly("ann", "bob"))).isZero();

    load("main", LoadMode.MERGE, person("ann", 31), person("dee", 60));
    assertThat(names(Optional.empty(), Optional.empty())).containsExactly("ann", "bob", "cyd", "dee");
    assertThat(decoded(() -> assertThat(names(Optional.empty(), at)).containsExactly("ann", "bob"))).isZero();
    assertThat(graph.snapshotAtCommit(older).datasets().stream().filter(d -> d.typeName().equals("Person"))
        .findFirst().orElseThrow().entityCount()).isEqualTo(2);
  }

  @Test
  void aBranchCommitIsRememberedOnlyWhileItsBranchIsTheSameBranch() {
    load("main", LoadMode.APPEND, person("ann", 30));
    graph.branchCreate("feature", "main", Optional.of("act-test"));
    String onFeature = load("feature", LoadMode.APPEND, person("fay", 20)).commitId().orElseThrow();
    Optional<String> at = Optional.of(onFeature);

    assertThat(names(Optional.empty(), at)).containsExactly("ann", "fay");
    assertThat(decoded(() -> assertThat(names(Optional.empty(), at)).containsExactly("ann", "fay"))).isZero();

    // The same name, another branch: the old branch's commit is gone with it.
    graph.branchDelete("feature", Optional.of("act-test"));
    graph.branchCreate("feature", "main", Optional.of("act-test"));
    load("feature", LoadMode.APPEND, person("gus", 21));
    assertThatThrownBy(() -> names(Optional.empty(), at)).isInstanceOf(NotFound.class);
    assertThat(names(Optional.of("feature"), Optional.empty())).containsExactly("ann", "gus");
    assertThat(names(Optional.empty(), Optional.empty())).containsExactly("ann");
  }
}
