package dev.omnigraph.engine;

import dev.omnigraph.api.CommitPage;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omnigraph.api.CommitListOutput;
import dev.omnigraph.api.CommitOutput;
import dev.omnigraph.api.InvalidRequest;
import dev.omnigraph.api.KeyConflict;
import dev.omnigraph.api.PreconditionFailed;
import dev.omnigraph.api.SnapshotOutput;
import dev.omnigraph.query.QueryParseException;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.table.InsertCertificate;
import dev.omnigraph.api.WriteResult;
import dev.omnigraph.table.TableAt;
import dev.omnigraph.table.TableRef;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** .gq mutations through the write path, once per backend. */
abstract class AbstractMutationTest extends AbstractGraphFixture {

  static final String GQ = read("/graphs/people.gq");

  static String read(String resource) {
    try (InputStream in = AbstractMutationTest.class.getResourceAsStream(resource)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  WriteResult mutate(String name, String paramsJson) {
    return mutate("main", name, paramsJson, Optional.empty());
  }

  WriteResult mutate(String branch, String name, String paramsJson, Optional<String> ifCommit) {
    try {
      JsonNode params = new ObjectMapper().readTree(paramsJson);
      return graph.mutate(branch, GQ, name, params, Optional.of("act-m"), ifCommit.map(dev.omnigraph.api.CommitId::of));
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private Optional<String> certificate(String type) {
    SnapshotOutput.Dataset d = dataset("main", type);
    return new DataTables(config).transactionAt(TableRef.main(d.datasetPath()).at(d.publishedDatasetVersion()))
        .map(tx -> tx.properties().get(InsertCertificate.INSERT_ABSENCE));
  }

  @Test
  void aMultiStatementInsertSeesItsOwnPendingNodes() {
    WriteResult r = mutate("add_pair", "{\"a\":\"ann\",\"b\":\"ben\",\"since\":2019}");
    assertThat(r.commitId()).isPresent();
    assertThat(rows("main", "Person")).containsOnlyKeys("ann", "ben");
    assertThat(dataset("main", "Knows").entityCount()).isEqualTo(1);
    assertThat(graph.commits("main", CommitPage.first(CommitPage.MAX_LIMIT)).commits()).hasSize(2);
    assertThat(certificate("Person")).contains("v1");
  }

  @Test
  void aFailingThirdStatementLeavesEveryTableAndTheManifestUnchanged() {
    mutate("add_person", "{\"name\":\"ann\"}");
    SnapshotOutput before = graph.snapshot("main");
    assertThatThrownBy(() -> mutate("add_two_then_bad_edge", "{\"a\":\"x\",\"b\":\"y\"}"))
        .isInstanceOf(InvalidRequest.class).hasMessageContaining("nobody");
    assertThat(graph.snapshot("main")).isEqualTo(before);
    DataTables tables = new DataTables(config);
    for (SnapshotOutput.Dataset d : before.datasets()) {
      assertThat(tables.head(TableRef.main(d.datasetPath()))).as(d.typeName()).isEqualTo(d.publishedDatasetVersion());
    }
    assertThat(sidecars()).isEmpty();
  }

  @Test
  void updateRewritesCommittedRowsAndCarriesNoCertificate() {
    mutate("add_person", "{\"name\":\"ann\",\"age\":30}");
    mutate("add_person", "{\"name\":\"bob\",\"age\":40}");
    mutate("set_age", "{\"name\":\"ann\",\"age\":31}");
    Map<String, Map<String, Object>> people = rows("main", "Person");
    assertThat(people.get("ann").get("age")).isEqualTo(31);
    assertThat(people.get("bob").get("age")).isEqualTo(40);
    assertThat(dataset("main", "Person").entityCount()).isEqualTo(2);
    assertThat(certificate("Person")).isEmpty();

    WriteResult none = mutate("set_age", "{\"name\":\"nobody\",\"age\":1}");
    assertThat(none.commitId()).isEmpty();
  }

  @Test
  void anUpdateSeesAnInsertOfTheSameMutation() {
    mutate("add_and_age", "{\"name\":\"cat\"}");
    assertThat(rows("main", "Person").get("cat").get("age")).isEqualTo(2);
    assertThat(certificate("Person")).contains("v1");
  }

  @Test
  void commitsArePagedNewestFirstWithoutGapsOrRepeats() {
    java.util.List<String> written = new java.util.ArrayList<>();
    written.add(graph.commits("main", CommitPage.first(CommitPage.MAX_LIMIT)).commits().get(0).graphCommitId()); // genesis
    for (int i = 1; i <= 6; i++) {
      written.add(mutate("add_person", "{\"name\":\"p" + i + "\"}").commitId().orElseThrow());
    }
    java.util.List<String> newestFirst = new java.util.ArrayList<>(written);
    java.util.Collections.reverse(newestFirst);

    CommitListOutput all = graph.commits("main", CommitPage.first(CommitPage.MAX_LIMIT));
    assertThat(all.commits()).extracting(CommitOutput::graphCommitId).containsExactlyElementsOf(newestFirst);
    assertThat(all.commits()).extracting(CommitOutput::graphManifestVersion).isSortedAccordingTo(
        java.util.Comparator.reverseOrder());
    assertThat(all.nextCursor()).isNull();

    java.util.List<Integer> sizes = new java.util.ArrayList<>();
    java.util.List<String> paged = new java.util.ArrayList<>();
    Optional<String> cursor = Optional.empty();
    do {
      CommitListOutput page = graph.commits("main", new CommitPage(3, cursor));
      sizes.add(page.commits().size());
      page.commits().forEach(c -> paged.add(c.graphCommitId()));
      cursor = Optional.ofNullable(page.nextCursor());
    } while (cursor.isPresent());
    assertThat(sizes).containsExactly(3, 3, 1);
    assertThat(paged).containsExactlyElementsOf(newestFirst);

    // Exactly one page's worth: no next page is announced.
    CommitListOutput exact = graph.commits("main", CommitPage.first(7));
    assertThat(exact.commits()).hasSize(7);
    assertThat(exact.nextCursor()).isNull();

    // A page starts strictly after the cursor's commit, also when that commit was not the page end.
    CommitListOutput firstTwo = graph.commits("main", CommitPage.first(2));
    CommitListOutput rest = graph.commits("main", new CommitPage(CommitPage.MAX_LIMIT,
        Optional.of(firstTwo.nextCursor())));
    assertThat(rest.commits()).extracting(CommitOutput::graphCommitId)
        .containsExactlyElementsOf(newestFirst.subList(2, 7));
    assertThat(rest.nextCursor()).isNull();
  }

  @Test
  void aBadLimitOrCursorIsInvalidRequest() {
    for (int limit : new int[] {0, -1, CommitPage.MAX_LIMIT + 1}) {
      assertThatThrownBy(() -> graph.commits("main", CommitPage.first(limit))).isInstanceOf(InvalidRequest.class)
          .hasMessageContaining("'limit'").hasMessageContaining(String.valueOf(limit));
    }
    assertThatThrownBy(() -> CommitPage.parse("ten", null)).isInstanceOf(InvalidRequest.class)
        .hasMessageContaining("'limit'").hasMessageContaining("ten");
    for (String cursor : new String[] {"not a cursor", "bm9wZQ", "%%%"}) {
      assertThatThrownBy(() -> graph.commits("main", new CommitPage(3, Optional.of(cursor))))
          .as(cursor).isInstanceOf(InvalidRequest.class).hasMessageContaining("'cursor'");
    }
  }

  @Test
  void deletingANodeDeletesItsEdges() {
    mutate("add_pair", "{\"a\":\"ann\",\"b\":\"ben\"}");
    mutate("forget", "{\"name\":\"ben\"}");
    assertThat(rows("main", "Person")).containsOnlyKeys("ann");
    assertThat(dataset("main", "Knows").entityCount()).isZero();
    assertThat(graph.commits("main", CommitPage.first(CommitPage.MAX_LIMIT)).commits()).hasSize(3);
  }

  /**
   * Was strictInsertOfAnExistingKeyIsKeyConflict: a keyed node insert is an upsert by its derived id,
   * as in the reference (issue 13). The whole row is replaced (an omitted nullable becomes null), one
   * row stays, and the commit is a rewrite, not a second entity. `load --mode append` stays strict
   * (AbstractWritePathTest.aDuplicateAppendIsKeyConflictWithTheExactIdAndChangesNothing).
   */
  @Test
  void aKeyedInsertOfAnExistingKeyIsAnUpsertByItsDerivedId() {
    mutate("add_person", "{\"name\":\"ann\",\"age\":1}");
    mutate("add_person", "{\"name\":\"ann\",\"age\":2}");
    assertThat(rows("main", "Person")).containsOnlyKeys("ann");
    assertThat(rows("main", "Person").get("ann").get("age")).isEqualTo(2);
    assertThat(dataset("main", "Person").entityCount()).isEqualTo(1);
    // Twice in one mutation: the later row wins, still one entity.
    mutate("add_pair", "{\"a\":\"ann\",\"b\":\"ann\"}");
    assertThat(dataset("main", "Person").entityCount()).isEqualTo(1);
    assertThat(rows("main", "Person").get("ann").get("age")).isNull();
    assertThat(graph.commits("main", CommitPage.first(CommitPage.MAX_LIMIT)).commits()).hasSize(4);
  }

  @Test
  void aStaleIfCommitIsPreconditionFailedWithNoNewCommit() {
    String genesis = graph.commits("main", CommitPage.first(CommitPage.MAX_LIMIT)).commits().get(0).graphCommitId();
    WriteResult first = mutate("main", "add_person", "{\"name\":\"ann\"}", Optional.of(genesis));
    assertThatThrownBy(() -> mutate("main", "add_person", "{\"name\":\"bob\"}", Optional.of(genesis)))
        .isInstanceOfSatisfying(PreconditionFailed.class, e -> {
          assertThat(e.expected()).isEqualTo(genesis);
          assertThat(e.actual()).isEqualTo(first.commitId());
        });
    assertThat(graph.commits("main", CommitPage.first(CommitPage.MAX_LIMIT)).commits()).hasSize(2);
    assertThat(rows("main", "Person")).containsOnlyKeys("ann");
  }

  @Test
  void anInsertLandingBetweenPrepareAndGateIsReadSetChangedForAnUpdate() throws Exception {
    mutate("add_person", "{\"name\":\"ann\",\"age\":30}");
    String before = graph.commits("main", CommitPage.first(CommitPage.MAX_LIMIT)).commits().get(0).graphCommitId();
    java.util.concurrent.atomic.AtomicBoolean once = new java.util.concurrent.atomic.AtomicBoolean();
    WriteResult[] concurrent = new WriteResult[1];
    try (AutoCloseable fp = dev.omnigraph.util.FailpointControl.enable("write.after_prepare", () -> {
      if (once.compareAndSet(false, true)) {
        concurrent[0] = mutate("add_person", "{\"name\":\"bob\"}");
      }
    })) {
      assertThatThrownBy(() -> mutate("set_age", "{\"name\":\"ann\",\"age\":31}"))
          .isInstanceOfSatisfying(dev.omnigraph.api.ReadSetChanged.class, e -> {
            assertThat(e.member()).isEqualTo("graph_head:main");
            assertThat(e.expected()).contains(before);
            assertThat(e.actual()).isEqualTo(concurrent[0].commitId());
          });
    }
    assertThat(rows("main", "Person").get("ann").get("age")).isEqualTo(30);
    assertThat(rows("main", "Person")).containsOnlyKeys("ann", "bob");
    assertThat(sidecars()).isEmpty();
  }

  @Test
  void aMutationWhereComparesAnIntegerPropertyWithADecimalByValue() {
    // Issue 47.5: the where filter failed inside Lance (29.5 does not convert to Int32).
    mutate("add_person", "{\"name\":\"ann\",\"age\":30}");
    mutate("add_person", "{\"name\":\"bob\",\"age\":25}");
    String gq = "query older() { update Person set { email: \"o@x.io\" } where age > 29.5 }\n"
        + "query none() { delete Person where age = 25.5 }\n"
        + "query young() { delete Person where age <= 25.5 }\n";
    var noParams = new ObjectMapper().createObjectNode();
    graph.mutate("main", gq, "older", noParams, Optional.empty(), Optional.empty());
    assertThat(emails()).containsEntry("ann", "o@x.io").containsEntry("bob", null);
    assertThat(graph.mutate("main", gq, "none", noParams, Optional.empty(), Optional.empty()).commitId()).isEmpty();
    graph.mutate("main", gq, "young", noParams, Optional.empty(), Optional.empty());
    assertThat(rows("main", "Person")).containsOnlyKeys("ann");
  }

  private Map<String, Object> emails() {
    SnapshotOutput.Dataset d = dataset("main", "Person");
    Map<String, Object> out = new java.util.TreeMap<>();
    new dev.omnigraph.table.DataTables(config).scan(TableAt.of(d.datasetPath(), Optional.ofNullable(d.nativeDatasetBranch()), d.publishedDatasetVersion()), dev.omnigraph.table.Filter.TRUE, List.of("id", "email"), r -> out.put(String.valueOf(r.get("id")), r.get("email")));
    return out;
  }

  @Test
  void mixingInsertsAndDeletesIsRejectedBeforeAnyIo() {
    String mixed = "query mixed($n: String) {\n  insert Person { name: $n }\n  delete Person where name = $n\n}\n";
    assertThatThrownBy(() -> graph.mutate("main", mixed, "mixed", new ObjectMapper().createObjectNode().put("n", "a"),
        Optional.empty(), Optional.empty()))
        .isInstanceOf(QueryParseException.class).hasMessageContaining("split");
    assertThat(graph.commits("main", CommitPage.first(CommitPage.MAX_LIMIT)).commits()).hasSize(1);
  }
}
