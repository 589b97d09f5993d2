package dev.omnigraph.table;

import dev.omnigraph.api.recovery.Outcome;
import dev.omnigraph.api.recovery.Action;
import dev.omnigraph.api.recovery.TableClass;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omnigraph.api.OpenMode;
import dev.omnigraph.api.RecoveryRequired;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.recovery.Recovery;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.api.LoadMode;
import java.io.StringReader;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 48: the response to a data table's Lance commit (the PUT of
 * {@code <table>/_versions/N.manifest}) is lost on the way back. The S3 client under Lance retries
 * the PUT, meets its own object (412), and Lance rebases the same transaction to N+1: our
 * transaction lands twice. The write answers {@code RecoveryRequired} (it never acknowledges), and
 * one {@code recover} settles it as ours (class {@code DUPLICATED}): compensated back to the pin,
 * audited, after which the graph takes writes, repair finds nothing and no sidecar remains.
 */
class LostCommitResponseS3Test {

  private CountingS3Front front;
  private StorageConfig config;

  @BeforeEach
  void start() throws Exception {
    front = new CountingS3Front();
    config = front.freshRoot("lostcommit");
  }

  @AfterEach
  void stop() {
    front.close();
  }

  private static StringReader person(String name) {
    return new StringReader("{\"type\":\"Person\",\"data\":{\"name\":\"" + name + "\"}}");
  }

  @Test
  void aLostTableCommitResponseIsOurOwnEffectTwiceAndOneRecoverSettlesIt() throws Exception {
    String schema = new String(getClass().getResourceAsStream("/graphs/people.pg").readAllBytes());
    Omnigraph.init(config, schema, Optional.empty()).close();
    try (Omnigraph g = Omnigraph.open(config, OpenMode.READ_WRITE)) {
      g.load("main", person("ann"), LoadMode.APPEND, Optional.empty());
      String loc = g.snapshot("main").datasets().stream().filter(d -> d.typeName().equals("Person")).findFirst()
          .orElseThrow().datasetPath();
      long pinned = g.snapshot("main").datasets().stream().filter(d -> d.typeName().equals("Person")).findFirst()
          .orElseThrow().publishedDatasetVersion();

      front.dropResponses("PUT", "nodes/.*/_versions/.*\\.manifest", 1);
      assertThatThrownBy(() -> g.load("main", person("bob"), LoadMode.APPEND, Optional.empty()))
          .isInstanceOf(RecoveryRequired.class);
      DataTables t = new DataTables(config);
      // What the lost response did: our transaction at pin+1 and again at pin+2.
      String uuid = t.transactionAt(TableRef.main(loc).at(pinned + 1)).orElseThrow().uuid();
      assertThat(t.transactionAt(TableRef.main(loc).at(pinned + 2)).orElseThrow().uuid()).isEqualTo(uuid);
      assertThat(g.snapshot("main").datasets().stream().filter(d -> d.typeName().equals("Person")).findFirst()
          .orElseThrow().entityCount()).isEqualTo(1);

      List<Outcome> settled = g.recover();
      assertThat(settled).singleElement().satisfies(o -> {
        assertThat(o.action()).isEqualTo(Action.COMPLETED);
        assertThat(o.tables()).singleElement()
            .satisfies(to -> assertThat(to.tableClass()).isEqualTo(TableClass.DUPLICATED));
      });
      assertThat(g.recoveryAudit()).anySatisfy(e -> assertThat(e.toString()).contains("DUPLICATED"));
      try (dev.omnigraph.engine.RootContents contents = dev.omnigraph.engine.RootContents.open(config)) {
        assertThat(contents.unreadableSidecars()).isEmpty();
      }
      assertThat(g.repair(false).empty()).isTrue();
      // All or nothing: bob is not there; the next write lands and nothing is duplicated.
      g.load("main", person("cid"), LoadMode.APPEND, Optional.empty());
      assertThat(g.snapshot("main").datasets().stream().filter(d -> d.typeName().equals("Person")).findFirst()
          .orElseThrow().entityCount()).isEqualTo(2);
      assertThat(t.countRows(TableRef.main(loc).at(t.head(TableRef.main(loc))))).isEqualTo(2);
    }
  }
}
