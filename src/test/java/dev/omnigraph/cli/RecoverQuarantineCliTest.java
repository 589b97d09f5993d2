package dev.omnigraph.cli;

import dev.omnigraph.cli.CliHarness.Run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.omnigraph.api.OpenMode;
import dev.omnigraph.api.RecoveryRequired;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.util.FailpointControl;
import dev.omnigraph.api.LoadMode;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/**
 * The operator's exit for a recovery sidecar recovery cannot read: {@code recover} and
 * {@code repair} name it with its quarantine command, {@code recover --quarantine ID} prints what
 * it held and moves it to {@code __recovery_quarantine/}, after which writes work; a readable
 * sidecar is refused and nothing changes.
 */
class RecoverQuarantineCliTest {

  private static final String ID = "01JBADBADBADBADBADBADBADBA";
  private static final String ANN = "{\"type\":\"Person\",\"data\":{\"name\":\"ann\"}}\n";

  @TempDir Path dir;
  private Path root;
  private Path data;

  @BeforeEach
  void initGraph() throws Exception {
    root = dir.resolve("g");
    Omnigraph.init(StorageConfig.local(root), resource("graphs/people.pg"), Optional.of("setup")).close();
    data = Files.writeString(dir.resolve("ann.ndjson"), ANN);
  }

  private static Run run(String... args) {
    return CliHarness.run(args);
  }

  /** Every file under the root with its content, so any change shows. */
  private Map<String, String> files() throws Exception {
    Map<String, String> out = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path p : walk.filter(Files::isRegularFile).toList()) {
        out.put(root.relativize(p).toString(), java.util.HexFormat.of().formatHex(Files.readAllBytes(p)));
      }
    }
    return out;
  }

  private int persons() {
    try (Omnigraph g = Omnigraph.open(StorageConfig.local(root), OpenMode.READ_ONLY)) {
      return (int) g.snapshot("main").datasets().stream().filter(d -> d.typeName().equals("Person"))
          .mapToLong(d -> d.entityCount()).sum();
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', quoteCharacter = '\'', value = {
      "corrupt | {not json                                      | not JSON",
      "empty   | ''                                             | empty file",
      "future  | '{\"format_version\": 10, \"writer_kind\": \"load\"}' | format_version 10 is newer than this build supports (9)",
  })
  void anUnreadableSidecarIsNamedByRecoverAndRepairThenQuarantinedAndWritesWorkAgain(String name, String content,
      String reason) throws Exception {
    Path sidecar = root.resolve("__recovery/" + ID + ".json");
    Files.createDirectories(sidecar.getParent());
    Files.writeString(sidecar, content == null ? "" : content);

    Run load = run("load", "--data", data.toString(), "--store", root.toString());
    assertThat(load.exit()).as(load.err()).isEqualTo(1);
    assertThat(load.err()).contains(reason).contains("omnigraph recover --quarantine " + ID)
        .doesNotContain("pre-v9");

    Run recover = run("recover", "--store", root.toString());
    assertThat(recover.exit()).isEqualTo(1);
    assertThat(recover.err()).contains("recovery sidecar __recovery/" + ID + ".json cannot be read: " + reason)
        .contains("omnigraph recover --quarantine " + ID + " --store ");

    Run repair = run("repair", "--store", root.toString());
    assertThat(repair.exit()).isEqualTo(3);
    assertThat(repair.err()).contains(reason).contains("omnigraph recover --quarantine " + ID)
        .doesNotContain("pre-v9");
    Run repairApply = run("repair", "--apply", "--store", root.toString());
    assertThat(repairApply.exit()).isEqualTo(1);
    assertThat(repairApply.err()).contains("omnigraph recover --quarantine " + ID);

    Run q = run("recover", "--quarantine", ID, "--store", root.toString());
    assertThat(q.exit()).as(q.err()).isZero();
    assertThat(q.out()).startsWith("recovery sidecar __recovery/" + ID + ".json: " + reason)
        .contains(content == null || content.isEmpty() ? "(empty file)" : content)
        .contains("moved __recovery/" + ID + ".json to __recovery_quarantine/" + ID + ".json");
    assertThat(sidecar).doesNotExist();
    assertThat(Files.readString(root.resolve("__recovery_quarantine/" + ID + ".json")))
        .isEqualTo(content == null ? "" : content);

    assertThat(run("recover", "--store", root.toString()).out()).isEqualTo("nothing to recover\n");
    Run again = run("load", "--data", data.toString(), "--store", root.toString());
    assertThat(again.exit()).as(again.err()).isZero();
    assertThat(persons()).isEqualTo(1);
    assertThat(run("repair", "--store", root.toString()).exit()).isZero();
  }

  @Test
  void aReadableSidecarIsRefusedAndNothingChangesThenRecoverSettlesIt() throws Exception {
    RecoveryRequired failure;
    try (Omnigraph g = Omnigraph.open(StorageConfig.local(root), OpenMode.READ_WRITE);
        AutoCloseable fp = FailpointControl.enableError("write.after_commits")) {
      failure = catchThrowableOfType(RecoveryRequired.class,
          () -> g.load("main", new StringReader(ANN), LoadMode.APPEND, Optional.of("t")));
    }
    assertThat(failure).isNotNull();
    Map<String, String> before = files();

    Run q = run("recover", "--quarantine", failure.operationId(), "--store", root.toString());
    assertThat(q.exit()).isEqualTo(1);
    assertThat(q.err()).startsWith("error: recovery sidecar __recovery/" + failure.operationId() + ".json is readable"
        + " (load on branch main, state ARMED): recovery settles it, quarantine refuses; run omnigraph recover");
    assertThat(q.out()).isEmpty();
    assertThat(files()).isEqualTo(before);

    Run recover = run("recover", "--store", root.toString());
    assertThat(recover.exit()).as(recover.err()).isZero();
    // Issue 48: it says what it found and what it did, table by table, and the audit row.
    assertThat(recover.out()).startsWith(failure.operationId() + " load on main\n"
        + "  found: the write changed tables but never confirmed its effects (INCOMPLETE_PHASE_B)\n"
        + "  did:   rolled back: the tables are restored to their published versions and the graph reads as before"
        + " the write; the sidecar is retired. Retry the write.\n")
        .containsPattern("\n    node:Person ROLLED_PAST_EXPECTED: restored v\\d+ -> v\\d+\n")
        .contains("  audit: RolledBack, one row in _graph_commit_recoveries.lance\n");
    assertThat(Files.exists(root.resolve("__recovery_quarantine"))).isFalse();
  }

  /**
   * Issue 48: a sidecar recovery reads but refuses (a foreign commit landed on top of its effect).
   * Before, {@code recover} refused, {@code recover --quarantine} refused and told the user to run
   * {@code recover}, {@code repair} refused while the sidecar was pending: only deleting the object by
   * hand got out. Now {@code recover} names the quarantine command, which moves the sidecar aside,
   * and {@code repair --apply} restores the table; then the graph takes writes.
   */
  @Test
  void aSidecarRecoveryRefusesIsQuarantinedThenRepairRestoresAndWritesWorkAgain() throws Exception {
    RecoveryRequired failure;
    StorageConfig config = StorageConfig.local(root);
    try (Omnigraph g = Omnigraph.open(config, OpenMode.READ_WRITE)) {
      g.load("main", new StringReader(ANN), LoadMode.APPEND, Optional.of("t"));
      try (AutoCloseable fp = FailpointControl.enableError("write.after_commits")) {
        failure = catchThrowableOfType(RecoveryRequired.class, () -> g.load("main",
            new StringReader("{\"type\":\"Person\",\"data\":{\"name\":\"bob\"}}\n"), LoadMode.APPEND,
            Optional.of("t")));
      }
      // A writer outside the supported topology commits on top of the unpublished effect.
      String loc = g.snapshot("main").datasets().stream().filter(d -> d.typeName().equals("Person")).findFirst()
          .orElseThrow().datasetPath();
      dev.omnigraph.table.DataTables tables = new dev.omnigraph.table.DataTables(config);
      long head = tables.head(loc, Optional.empty());
      assertThat(tables.commit(tables.staging().stageDeleteIds(loc, Optional.empty(), head, List.of("bob"))).isLanded())
          .isTrue();
    }
    assertThat(failure).isNotNull();
    String id = failure.operationId();

    Run recover = run("recover", "--store", root.toString());
    assertThat(recover.exit()).isEqualTo(3);
    assertThat(recover.err()).contains("foreign commit").contains("omnigraph recover --quarantine " + id)
        .contains("omnigraph repair --apply");

    Run q = run("recover", "--quarantine", id, "--store", root.toString());
    assertThat(q.exit()).as(q.err()).isZero();
    assertThat(q.out()).contains("recovery refuses it: a table it owns moved by a foreign commit")
        .contains("moved __recovery/" + id + ".json to __recovery_quarantine/" + id + ".json")
        .contains("omnigraph repair --apply");
    assertThat(root.resolve("__recovery/" + id + ".json")).doesNotExist();

    Run repair = run("repair", "--apply", "--store", root.toString());
    assertThat(repair.exit()).as(repair.err()).isZero();
    assertThat(run("repair", "--store", root.toString()).exit()).isZero();
    assertThat(run("recover", "--store", root.toString()).out()).isEqualTo("nothing to recover\n");
    Run again = run("load", "--data", Files.writeString(dir.resolve("cid.ndjson"),
        "{\"type\":\"Person\",\"data\":{\"name\":\"cid\"}}\n").toString(), "--store", root.toString());
    assertThat(again.exit()).as(again.err()).isZero();
    assertThat(persons()).isEqualTo(2); // ann and cid: bob was never published
  }

  @Test
  void anUnknownOrMalformedIdIsAnErrorAndChangesNothing() throws Exception {
    Map<String, String> before = files();
    Run absent = run("recover", "--quarantine", ID, "--store", root.toString());
    assertThat(absent.exit()).isEqualTo(1);
    assertThat(absent.err()).isEqualTo("error: recovery sidecar not found: __recovery/" + ID
        + ".json (nothing pending under that operation id)\n");
    Run traversal = run("recover", "--quarantine", "../__manifest/x", "--store", root.toString());
    assertThat(traversal.exit()).isEqualTo(1);
    assertThat(traversal.err()).startsWith("error: not a recovery operation id: '../__manifest/x'");
    assertThat(files()).isEqualTo(before);
  }

  @Test
  void theSidecarKeyIsAcceptedAndLongContentIsTruncatedButKeptWhole() throws Exception {
    String big = "x".repeat(RecoverCommand.SHOWN_CHARS + 500) + "\u0001";
    Path sidecar = root.resolve("__recovery/" + ID + ".json");
    Files.createDirectories(sidecar.getParent());
    Files.writeString(sidecar, big);
    Run q = run("recover", "--quarantine", "__recovery/" + ID + ".json", "--store", root.toString());
    assertThat(q.exit()).as(q.err()).isZero();
    assertThat(q.out()).contains("... (501 more characters; the whole file is kept)");
    assertThat(Files.readString(root.resolve("__recovery_quarantine/" + ID + ".json"))).isEqualTo(big);

    // A second unreadable sidecar under the same id later: both copies are kept.
    Files.createDirectories(sidecar.getParent());
    Files.writeString(sidecar, "\u0000garbage");
    Run json = run("recover", "--quarantine", ID, "--json", "--store", root.toString());
    assertThat(json.exit()).as(json.err()).isZero();
    assertThat(json.out()).contains("\"reason\" : \"not JSON").contains("\"content_truncated\" : false");
    try (Stream<Path> l = Files.list(root.resolve("__recovery_quarantine"))) {
      assertThat(l.toList()).hasSize(2);
    }
    assertThat(List.of(sidecar)).allSatisfy(p -> assertThat(p).doesNotExist());
  }

  private static String resource(String name) throws Exception {
    try (InputStream in = RecoverQuarantineCliTest.class.getClassLoader().getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
