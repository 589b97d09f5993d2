package dev.omnigraph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.omnigraph.cli.CliHarness.Run;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.api.storage.StorageConfig;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 44 item 5 at the CLI: {@code repair} lists residue and still exits 0 ("no drift"),
 * {@code doctor} warns about it without failing, {@code cleanup} removes what is ours to remove.
 */
class ResidueCliTest {

  /** {@code ResidueScan.GRACE_PROPERTY}: residue counts from the moment it is written. */
  private static final String GRACE = "omnigraph.maintenance.residue-grace";

  @TempDir Path dir;
  private Path root;

  @BeforeEach
  void initGraph() throws Exception {
    root = dir.resolve("g");
    try (InputStream in = ResidueCliTest.class.getClassLoader().getResourceAsStream("graphs/people.pg")) {
      Omnigraph.init(StorageConfig.local(root), new String(in.readAllBytes(), StandardCharsets.UTF_8),
          Optional.of("setup")).close();
    }
    Files.createDirectories(root.resolve("nodes"));
    Files.writeString(root.resolve("nodes/README"), "not a table");
    Files.writeString(root.resolve("notes.txt"), "someone's notes");
    System.setProperty(GRACE, "PT0S");
  }

  @AfterEach
  void defaultGrace() {
    System.clearProperty(GRACE);
  }

  @Test
  void repairListsResidueAndExitsZeroDoctorWarnsAndCleanupRemovesOnlyOurs() throws Exception {
    Run repair = CliHarness.run("repair", "--store", root.toString());
    assertThat(repair.exit()).as(repair.err()).isZero();
    assertThat(repair.out()).contains("no drift: ")
        .contains("residue nodes/README [foreign_entry]: nodes/ holds only table datasets named "
            + "<table id>-<incarnation> (blocks nothing; cleanup removes it)")
        .contains("residue notes.txt [foreign_entry]: not part of the graph root's layout (blocks nothing; not ours "
            + "to remove: check it by hand)");

    Run json = CliHarness.run("repair", "--json", "--store", root.toString());
    assertThat(json.exit()).isZero();
    List<String> paths = new ArrayList<>();
    for (JsonNode r : json.json().get("residue")) {
      paths.add(r.get("path").asText() + " " + r.get("kind").asText() + " " + r.get("removable").asBoolean());
    }
    assertThat(paths).containsExactly("nodes/README foreign_entry true", "notes.txt foreign_entry false");

    Run doctor = CliHarness.run("doctor", "--store", root.toString());
    assertThat(doctor.exit()).as(doctor.out() + doctor.err()).isZero();
    assertThat(doctor.out()).contains("residue: 2 unexplained file(s) or dataset(s) under the root")
        .contains("WARN residue nodes/README [foreign_entry]").contains("WARN residue notes.txt [foreign_entry]");

    Run dry = CliHarness.run("cleanup", "--dry-run", "--store", root.toString());
    assertThat(dry.exit()).isZero();
    assertThat(dry.out()).contains("residue nodes/README [foreign_entry]: would remove");
    assertThat(root.resolve("nodes/README")).exists();

    Run cleanup = CliHarness.run("cleanup", "--store", root.toString());
    assertThat(cleanup.exit()).as(cleanup.err()).isZero();
    assertThat(cleanup.out()).contains("residue nodes/README [foreign_entry]: removed")
        .contains("residue notes.txt [foreign_entry]: kept, not ours to remove");
    assertThat(root.resolve("nodes/README")).doesNotExist();
    assertThat(root.resolve("notes.txt")).exists();
  }
}
