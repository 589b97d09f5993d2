package dev.omnigraph.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omnigraph.api.CommitOutput;
import dev.omnigraph.api.CommitPage;
import dev.omnigraph.api.PreconditionFailed;
import dev.omnigraph.api.RevertOutput;
import dev.omnigraph.api.RevertRefused;
import dev.omnigraph.api.LoadMode;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The revert contract on one backend (docs/write-path.md, "Revert"): one commit whose state equals
 * the named commit's, by a Lance {@code Restore} per changed table and no other table touched; a
 * no-op at the head; typed refusals for a commit outside the history and a wrong
 * {@code If-Graph-Commit}; on a branch, a table it forked is restored on its own ref, main untouched.
 */
abstract class AbstractRevertTest extends AbstractGraphFixture {

  static final String ACTOR = "act-revert";

  @Override
  protected void buildTemplate(Omnigraph template) {
    template.load("main", new java.io.StringReader(String.join("\n", person("ann", 30), person("bob", 40),
        "{\"type\":\"Company\",\"data\":{\"name\":\"acme\"}}")), LoadMode.APPEND, Optional.of("act-test"));
  }

  private String head(String branch) {
    return graph.commits(branch, CommitPage.first(1)).commits().get(0).graphCommitId();
  }

  private List<CommitOutput> commits(String branch) {
    return graph.commits(branch, CommitPage.first(CommitPage.MAX_LIMIT)).commits();
  }

  @Test
  void aRevertRestoresEveryChangedTableInOneCommitAndLeavesTheOthers() {
    String target = head("main");
    long person = dataset("main", "Person").publishedDatasetVersion();
    long company = dataset("main", "Company").publishedDatasetVersion();
    long knows = dataset("main", "Knows").publishedDatasetVersion();
    load("main", LoadMode.APPEND, person("cat", 50), person("dan", 60));
    load("main", LoadMode.MERGE, person("ann", 31), "{\"type\":\"Company\",\"data\":{\"name\":\"initech\"}}");
    String before = head("main");
    long personHead = dataset("main", "Person").publishedDatasetVersion();
    long companyHead = dataset("main", "Company").publishedDatasetVersion();
    int commitsBefore = commits("main").size();

    RevertOutput out = graph.revert("main", target, Optional.of(ACTOR), Optional.empty());

    assertThat(out.reverted()).isTrue();
    assertThat(out.to()).isEqualTo(target);
    assertThat(out.tables()).extracting(RevertOutput.Table::tableKey).containsExactly("node:Company", "node:Person");
    assertThat(out.tables()).containsExactly(
        new RevertOutput.Table("node:Company", companyHead, company, companyHead + 1, 1),
        new RevertOutput.Table("node:Person", personHead, person, personHead + 1, 2));
    assertThat(dataset("main", "Person").publishedDatasetVersion()).isEqualTo(personHead + 1);
    assertThat(dataset("main", "Person").entityCount()).isEqualTo(2);
    assertThat(dataset("main", "Company").entityCount()).isEqualTo(1);
    assertThat(dataset("main", "Knows").publishedDatasetVersion()).isEqualTo(knows);
    assertThat(rows("main", "Person")).containsOnlyKeys("ann", "bob");
    assertThat(rows("main", "Person").get("ann").get("age")).isEqualTo(30);
    // One commit, on top of the old head, by the caller; the state at it is the target's.
    List<CommitOutput> after = commits("main");
    assertThat(after).hasSize(commitsBefore + 1);
    assertThat(after.get(0).graphCommitId()).isEqualTo(out.graphCommitId());
    assertThat(after.get(0).parentCommitId()).isEqualTo(before);
    assertThat(after.get(0).actorId()).isEqualTo(ACTOR);
    assertThat(after.get(0).graphManifestVersion()).isEqualTo(out.graphManifestVersion());
    assertThat(sidecars().stream().filter(k -> k.endsWith(".json"))).isEmpty();
    // The branch writes on after it: the restored version is an ordinary pin.
    load("main", LoadMode.APPEND, person("eve", 20));
    assertThat(rows("main", "Person")).containsOnlyKeys("ann", "bob", "eve");
  }

  @Test
  void revertingToTheHeadIsANoOp() {
    String h = head("main");
    long mv = graph.snapshot("main").graphManifestVersion();
    RevertOutput out = graph.revert("main", h, Optional.of(ACTOR), Optional.empty());
    assertThat(out.reverted()).isFalse();
    assertThat(out.tables()).isEmpty();
    assertThat(out.graphManifestVersion()).isEqualTo(mv);
    assertThat(head("main")).isEqualTo(h);
  }

  @Test
  void aCommitOutsideTheHistoryIsRefusedTypedAndAWrongHeadIsAPreconditionFailure() {
    String target = head("main");
    graph.branchCreate("side", "main", Optional.of("act-test"));
    String sideCommit = load("side", LoadMode.APPEND, person("zed", 9)).commitId().orElseThrow();
    load("main", LoadMode.APPEND, person("cat", 50));
    long mv = graph.snapshot("main").graphManifestVersion();
    for (String id : List.of(sideCommit, "01NOSUCHCOMMIT0000000000000")) {
      assertThatThrownBy(() -> graph.revert("main", id, Optional.of(ACTOR), Optional.empty()))
          .isInstanceOfSatisfying(RevertRefused.class, e -> {
            assertThat(e.reason()).isEqualTo(RevertRefused.Reason.NOT_IN_HISTORY);
            assertThat(e.commitId()).isEqualTo(id);
          });
    }
    assertThatThrownBy(() -> graph.revert("main", target, Optional.of(ACTOR), Optional.of(dev.omnigraph.api.CommitId.of(target))))
        .isInstanceOfSatisfying(PreconditionFailed.class, e -> assertThat(e.expected()).isEqualTo(target));
    assertThat(graph.snapshot("main").graphManifestVersion()).isEqualTo(mv);
    assertThat(rows("main", "Person")).containsOnlyKeys("ann", "bob", "cat");
    // The right head passes the precondition.
    String h = head("main");
    assertThat(graph.revert("main", target, Optional.of(ACTOR), Optional.of(dev.omnigraph.api.CommitId.of(h))).reverted()).isTrue();
    assertThat(rows("main", "Person")).containsOnlyKeys("ann", "bob");
  }

  @Test
  void aBranchRevertsItsOwnTableToTheInheritedCommitAndMainIsUntouched() {
    String inherited = head("main");
    graph.branchCreate("feature", "main", Optional.of("act-test"));
    load("feature", LoadMode.APPEND, person("cat", 50));
    String own = head("feature");
    load("feature", LoadMode.APPEND, person("dan", 60));
    assertThat(dataset("feature", "Person").nativeDatasetBranch()).isEqualTo("feature");
    long mainPerson = dataset("main", "Person").publishedDatasetVersion();

    RevertOutput toOwn = graph.revert("feature", own, Optional.of(ACTOR), Optional.empty());
    assertThat(toOwn.tables()).extracting(RevertOutput.Table::tableKey).containsExactly("node:Person");
    assertThat(rows("feature", "Person")).containsOnlyKeys("ann", "bob", "cat");

    RevertOutput toInherited = graph.revert("feature", inherited, Optional.of(ACTOR), Optional.empty());
    assertThat(toInherited.reverted()).isTrue();
    assertThat(dataset("feature", "Person").nativeDatasetBranch()).isEqualTo("feature");
    assertThat(dataset("feature", "Person").entityCount()).isEqualTo(2);
    assertThat(rows("feature", "Person")).containsOnlyKeys("ann", "bob");
    assertThat(dataset("main", "Person").publishedDatasetVersion()).isEqualTo(mainPerson);
    assertThat(rows("main", "Person")).containsOnlyKeys("ann", "bob");
    assertThat(commits("feature").get(0).graphCommitId()).isEqualTo(toInherited.graphCommitId());
  }
}
