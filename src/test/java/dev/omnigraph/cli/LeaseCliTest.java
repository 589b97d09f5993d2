package dev.omnigraph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omnigraph.cli.CliHarness.Run;
import dev.omnigraph.lease.LeaseManager;
import dev.omnigraph.lease.LeaseOwner;
import dev.omnigraph.storage.StorageAdapter;
import dev.omnigraph.storage.StorageAdapters;
import dev.omnigraph.api.storage.StorageConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code omnigraph lease show|break}: show reads who holds the lease (text and JSON); break refuses
 * without {@code --force}, explaining the risk and changing nothing, and with it deletes the lease so
 * the next writer acquires at once.
 */
class LeaseCliTest {

  @TempDir Path dir;
  private StorageAdapter store;
  private LeaseManager leases;

  @BeforeEach
  void open() {
    store = StorageAdapters.open(StorageConfig.local(dir));
    leases = new LeaseManager(store, Clock.systemUTC());
  }

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void showWithNoLease() throws Exception {
    Run text = CliHarness.run("lease", "show", "--store", dir.toString());
    assertThat(text.exit()).isZero();
    assertThat(text.out()).contains("no writer lease", "no process holds it");

    Run json = CliHarness.run("lease", "show", "--json", "--store", dir.toString());
    assertThat(json.exit()).isZero();
    assertThat(json.json().get("held").asBoolean()).isFalse();
    assertThat(json.json().has("owner_id")).isFalse();
  }

  @Test
  void showNamesTheHolder() throws Exception {
    leases.acquire(new LeaseOwner("owner-x", "pod-7", 4242), Duration.ofMinutes(5));

    Run text = CliHarness.run("lease", "show", "--store", dir.toString());
    assertThat(text.exit()).isZero();
    assertThat(text.out()).contains("live", "owner-x (pod-7 pid 4242)", "300000 ms", "unless renewed");

    Run json = CliHarness.run("lease", "show", "--json", "--store", dir.toString());
    assertThat(json.exit()).isZero();
    assertThat(json.json().get("held").asBoolean()).isTrue();
    assertThat(json.json().get("owner_id").asText()).isEqualTo("owner-x");
    assertThat(json.json().get("host").asText()).isEqualTo("pod-7");
    assertThat(json.json().get("pid").asLong()).isEqualTo(4242);
    assertThat(json.json().get("ttl_ms").asLong()).isEqualTo(300_000);
    assertThat(json.json().get("expired").asBoolean()).isFalse();
  }

  @Test
  void breakRefusesWithoutForceAndExplainsTheRisk() throws Exception {
    leases.acquire(new LeaseOwner("owner-x", "pod-7", 4242), Duration.ofMinutes(5));
    byte[] before = Files.readAllBytes(dir.resolve(LeaseManager.KEY));

    Run run = CliHarness.run("lease", "break", "--store", dir.toString());

    assertThat(run.exit()).isEqualTo(ExitCodes.USAGE);
    assertThat(run.err()).contains("--force", "nothing was changed", "second writer", "lease show");
    assertThat(Files.readAllBytes(dir.resolve(LeaseManager.KEY))).isEqualTo(before);
  }

  @Test
  void breakWithForceDeletesALiveLeaseWithAWarningAndTheNextWriterAcquires() {
    leases.acquire(new LeaseOwner("owner-x", "pod-7", 4242), Duration.ofMinutes(5));

    Run run = CliHarness.run("lease", "break", "--force", "--store", dir.toString());

    assertThat(run.exit()).isZero();
    assertThat(run.out()).contains("broke the writer lease", "owner-x (pod-7 pid 4242)", "LIVE");
    assertThat(run.err()).contains("warning", "second writer");
    assertThat(leases.show()).isEmpty();
    assertThat(leases.acquire(new LeaseOwner("owner-y", "pod-8", 1), Duration.ofMinutes(5)).holds()).isTrue();

    Run again = CliHarness.run("lease", "break", "--force", "--store", dir.toString());
    assertThat(again.exit()).isZero();
  }

  @Test
  void breakOfNothingAndAnUnreadableLease() throws Exception {
    Run none = CliHarness.run("lease", "break", "--force", "--store", dir.toString());
    assertThat(none.exit()).isZero();
    assertThat(none.out()).contains("nothing to break");

    Files.writeString(dir.resolve(LeaseManager.KEY), "garbage");
    Run show = CliHarness.run("lease", "show", "--store", dir.toString());
    assertThat(show.exit()).isEqualTo(ExitCodes.ERROR);
    assertThat(show.out()).contains("garbage");
    assertThat(show.err()).contains("cannot be read", "lease break --force");

    Run broke = CliHarness.run("lease", "break", "--force", "--store", dir.toString());
    assertThat(broke.exit()).isZero();
    assertThat(broke.out()).contains("unreadable", "garbage");
    assertThat(Files.exists(dir.resolve(LeaseManager.KEY))).isFalse();
  }

  @Test
  void leaseHeldIsAConflictExit3() {
    assertThat(ExitCodes.exitCode(new dev.omnigraph.api.LeaseHeld("o", "h", 1, java.time.Instant.EPOCH,
        java.time.Instant.EPOCH))).isEqualTo(3);
    assertThat(ExitCodes.exitCode(new dev.omnigraph.api.LeaseLost("o", "taken over"))).isEqualTo(3);
  }
}
