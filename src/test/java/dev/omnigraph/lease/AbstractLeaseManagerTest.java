package dev.omnigraph.lease;

import dev.omnigraph.api.lease.BrokenLease;
import dev.omnigraph.api.lease.LeaseView;
import dev.omnigraph.api.lease.LeaseUnreadable;
import dev.omnigraph.api.lease.LeaseDocument;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.omnigraph.api.Conflict;
import dev.omnigraph.api.LeaseHeld;
import dev.omnigraph.api.LeaseLost;
import dev.omnigraph.storage.StorageAdapter;
import dev.omnigraph.storage.StorageAdapters;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.testing.Races;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The writer lease's contract, once for every backend; a subclass only says how to get a fresh root.
 * Time is a {@link FakeClock} every manager of a test shares, so expiry is exact and instant.
 */
abstract class AbstractLeaseManagerTest {

  static final Duration TTL = Duration.ofSeconds(30);

  /** A fresh, empty root no other test uses. */
  protected abstract StorageConfig newRoot() throws Exception;

  protected StorageConfig root;
  protected StorageAdapter store;
  protected FakeClock clock;
  protected LeaseManager leases;
  protected final LeaseOwner alice = new LeaseOwner("owner-alice", "host-a", 101);
  protected final LeaseOwner bob = new LeaseOwner("owner-bob", "host-b", 202);

  @BeforeEach
  void open() throws Exception {
    root = newRoot();
    store = StorageAdapters.open(root);
    clock = new FakeClock(Instant.parse("2030-01-02T03:04:05.123456Z"));
    leases = new LeaseManager(store, clock);
  }

  @AfterEach
  void close() {
    if (store != null) {
      store.close();
    }
  }

  @Test
  void acquireWritesTheLeaseDocument() {
    WriterLease lease = leases.acquire(alice, TTL);

    assertThat(lease.holds()).isTrue();
    LeaseView shown = leases.show().orElseThrow();
    assertThat(shown.expired()).isFalse();
    LeaseDocument d = shown.document();
    assertThat(d).isEqualTo(lease.document());
    assertThat(d.formatVersion()).isEqualTo(LeaseDocument.FORMAT_VERSION);
    assertThat(d.ownerId()).isEqualTo("owner-alice");
    assertThat(d.host()).isEqualTo("host-a");
    assertThat(d.pid()).isEqualTo(101);
    assertThat(d.acquiredAt()).isEqualTo(clock.instant());
    assertThat(d.renewedAt()).isEqualTo(clock.instant());
    assertThat(d.ttlMs()).isEqualTo(30_000);
    assertThat(shown.expiresAt()).isEqualTo(clock.instant().plus(TTL));
    assertThat(store.readText(LeaseManager.KEY)).contains("\"owner_id\" : \"owner-alice\"", "\"ttl_ms\" : 30000",
        "\"acquired_at_micros\"", "\"renewed_at_micros\"", "\"format_version\" : 1");
    lease.verify();
  }

  @Test
  void aSecondAcquirerIsRefusedWithTheHoldersIdentity() {
    WriterLease held = leases.acquire(alice, TTL);
    clock.advance(Duration.ofSeconds(29));

    LeaseHeld refused = catchThrowableOfType(LeaseHeld.class, () -> leases.acquire(bob, TTL));

    assertThat(refused).isNotNull().isInstanceOf(Conflict.class);
    assertThat(refused.owner()).isEqualTo("owner-alice");
    assertThat(refused.host()).isEqualTo("host-a");
    assertThat(refused.pid()).isEqualTo(101);
    assertThat(refused.since()).isEqualTo(held.document().acquiredAt());
    assertThat(refused.expiresAt()).isEqualTo(held.document().expiresAt());
    assertThat(refused.getMessage()).isEqualTo("graph is served by owner-alice (host-a pid 101) since "
        + held.document().acquiredAt() + "; use --server URL or stop it");
    assertThat(leases.show().orElseThrow().document().ownerId()).isEqualTo("owner-alice");
    held.verify();
  }

  @Test
  void renewMovesRenewedAtAndKeepsTheLeaseLive() {
    WriterLease lease = leases.acquire(alice, TTL);
    Instant acquired = clock.instant();

    for (int i = 0; i < 3; i++) {
      clock.advance(Duration.ofSeconds(20));
      lease.renew();
      assertThat(lease.holds()).isTrue();
    }

    LeaseView shown = leases.show().orElseThrow();
    assertThat(shown.document().acquiredAt()).isEqualTo(acquired);
    assertThat(shown.document().renewedAt()).isEqualTo(clock.instant());
    assertThat(shown.expired()).isFalse();
    lease.verify();
    // 60 s after acquiring, a 30 s lease renewed every 20 s is still live: the newcomer is refused.
    assertThatThrownBy(() -> leases.acquire(bob, TTL)).isInstanceOf(LeaseHeld.class);
  }

  @Test
  void holdsIsFalseOnceTheTtlPassesWithoutARenewal() {
    WriterLease lease = leases.acquire(alice, TTL);

    clock.advance(TTL);
    assertThat(lease.holds()).as("live up to renewed_at + ttl inclusive").isTrue();
    clock.advance(Duration.ofNanos(1000));
    assertThat(lease.holds()).isFalse();
    assertThatThrownBy(lease::verify).isInstanceOf(LeaseLost.class).hasMessageContaining("expired");
    // Nobody took it over, so a late renewal still wins the swap and the lease is live again.
    lease.renew();
    assertThat(lease.holds()).isTrue();
    lease.verify();
  }

  @Test
  void anExpiredLeaseIsTakenOverAndTheOldHoldersRenewFailsLeaseLost() {
    WriterLease old = leases.acquire(alice, TTL);
    clock.advance(TTL.plusMillis(1));

    WriterLease taken = leases.acquire(bob, TTL);

    assertThat(taken.holds()).isTrue();
    assertThat(leases.show().orElseThrow().document().ownerId()).isEqualTo("owner-bob");
    assertThat(taken.document().acquiredAt()).isEqualTo(clock.instant());

    LeaseLost lost = catchThrowableOfType(LeaseLost.class, old::renew);
    assertThat(lost).isNotNull().isInstanceOf(Conflict.class);
    assertThat(lost.owner()).isEqualTo("owner-alice");
    assertThat(lost.getMessage()).contains("owner-bob");
    assertThat(old.holds()).isFalse();
    assertThatThrownBy(old::verify).isInstanceOf(LeaseLost.class);
    assertThat(old.release()).as("the old holder's release deletes nothing").isFalse();
    assertThat(leases.show().orElseThrow().document().ownerId()).isEqualTo("owner-bob");
    taken.renew();
    taken.verify();
  }

  @Test
  void verifyNoticesATakeoverThatHoldsCannot() {
    WriterLease old = leases.acquire(alice, TTL);
    clock.advance(TTL.plusMillis(1));
    leases.acquire(bob, TTL);

    assertThatThrownBy(old::verify).isInstanceOf(LeaseLost.class).hasMessageContaining("owner-bob");
  }

  @Test
  void releaseLetsTheNextAcquirerInAtOnce() {
    WriterLease lease = leases.acquire(alice, TTL);

    assertThat(lease.release()).isTrue();
    assertThat(lease.holds()).isFalse();
    assertThat(leases.show()).isEmpty();
    assertThat(lease.release()).as("idempotent").isFalse();
    assertThatThrownBy(lease::renew).isInstanceOf(LeaseLost.class);

    WriterLease next = leases.acquire(bob, TTL);
    assertThat(next.holds()).isTrue();
  }

  @Test
  void theSameOwnerAcquiresAgain() {
    WriterLease first = leases.acquire(alice, TTL);
    clock.advance(Duration.ofSeconds(1));

    WriterLease again = leases.acquire(alice, TTL);

    assertThat(again.holds()).isTrue();
    assertThatThrownBy(first::renew).as("the earlier handle's version was replaced").isInstanceOf(LeaseLost.class);
    again.verify();
  }

  @Test
  void breakRemovesALiveLeaseAndTheHolderFindsOutAtItsNextRenewal() {
    WriterLease lease = leases.acquire(alice, TTL);

    BrokenLease broken = leases.breakLease().orElseThrow();

    assertThat(broken.view().orElseThrow().document().ownerId()).isEqualTo("owner-alice");
    assertThat(broken.view().orElseThrow().expired()).isFalse();
    assertThat(leases.show()).isEmpty();
    assertThat(leases.breakLease()).as("nothing left to break").isEmpty();
    WriterLease next = leases.acquire(bob, TTL);
    assertThatThrownBy(lease::renew).isInstanceOf(LeaseLost.class);
    next.verify();
  }

  @Test
  void anUnreadableLeaseRefusesAcquireAndCanBeBroken() {
    store.putText(LeaseManager.KEY, "{\"format_version\": 99}");

    LeaseUnreadable e = catchThrowableOfType(LeaseUnreadable.class, () -> leases.acquire(alice, TTL));
    assertThat(e).isNotNull().isInstanceOf(Conflict.class);
    assertThat(e.reason()).contains("format_version 99", "newer");
    assertThat(e.content()).isEqualTo("{\"format_version\": 99}");
    assertThatThrownBy(leases::show).isInstanceOf(LeaseUnreadable.class);

    BrokenLease broken = leases.breakLease().orElseThrow();
    assertThat(broken.view()).isEmpty();
    assertThat(broken.content()).isEqualTo("{\"format_version\": 99}");
    assertThat(leases.acquire(alice, TTL).holds()).isTrue();
  }

  @Test
  void racingAcquirersHaveExactlyOneHolder() throws Exception {
    assertExactlyOneOf(8);
  }

  @Test
  void racingTakeoversOfAnExpiredLeaseHaveExactlyOneHolder() throws Exception {
    leases.acquire(new LeaseOwner("owner-dead", "host-x", 9), TTL);
    clock.advance(TTL.plusSeconds(1));

    assertExactlyOneOf(8);
  }

  /** {@code n} owners acquire at once: one holds, every other is refused with that one's identity. */
  private void assertExactlyOneOf(int n) throws Exception {
    ConcurrentLinkedQueue<WriterLease> holders = new ConcurrentLinkedQueue<>();
    ConcurrentLinkedQueue<Throwable> refused = new ConcurrentLinkedQueue<>();
    Races.atOnce(n, i -> {
      try {
        holders.add(leases.acquire(new LeaseOwner("racer-" + i, "host", i), TTL));
      } catch (Conflict e) {
        refused.add(e);
      }
    });
    assertThat(holders).hasSize(1);
    assertThat(refused).hasSize(n - 1);
    String winner = holders.peek().owner().ownerId();
    assertThat(leases.show().orElseThrow().document().ownerId()).isEqualTo(winner);
    // A loser that read the lease before the winner wrote it is refused by the swap and reports the
    // winner; one that raced a rare intermediate state gets the retryable Conflict. Never a 2nd holder.
    for (Throwable t : refused) {
      if (t instanceof LeaseHeld h) {
        assertThat(h.owner()).isEqualTo(winner);
      }
    }
    holders.peek().verify();
  }

  /**
   * Two processes, not two threads: each child JVM has its own adapter, its own in-process lock
   * stripes and its own HTTP connections, so only the store's compare-and-swap (the local key lock
   * and link, S3's conditional headers) can keep them apart.
   */
  @Test
  void twoChildJvmsRacingHaveExactlyOneHolder() throws Exception {
    List<Process> children = new ArrayList<>();
    List<java.io.BufferedReader> outs = new ArrayList<>();
    try {
      for (String owner : List.of("child-one", "child-two")) {
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", dev.omnigraph.testing.ChildJvm.classPath(), "-XX:TieredStopAtLevel=1",
            LeaseRaceChild.class.getName(), root.rootUri(), owner).redirectError(ProcessBuilder.Redirect.INHERIT);
        root.endpoint().ifPresent(e -> pb.environment().put("AWS_ENDPOINT", e));
        pb.environment().put("AWS_REGION", root.region());
        root.accessKeyId().ifPresent(k -> pb.environment().put("AWS_ACCESS_KEY_ID", k));
        root.secretAccessKey().ifPresent(k -> pb.environment().put("AWS_SECRET_ACCESS_KEY", k));
        pb.environment().put("AWS_ALLOW_HTTP", "true");
        Process p = pb.start();
        children.add(p);
        outs.add(new java.io.BufferedReader(new java.io.InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)));
      }
      for (java.io.BufferedReader out : outs) {
        assertThat(out.readLine()).isEqualTo("READY");
      }
      for (Process p : children) {
        p.getOutputStream().write("go\n".getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().flush();
      }
      List<String> said = new ArrayList<>();
      for (java.io.BufferedReader out : outs) {
        said.add(out.readLine());
      }
      for (Process p : children) {
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isZero();
      }
      assertThat(said).filteredOn(l -> l != null && l.startsWith("HELD ")).hasSize(1);
      assertThat(said).filteredOn(l -> l != null && l.startsWith("REFUSED")).hasSize(1);
      String winner = said.stream().filter(l -> l.startsWith("HELD ")).findFirst().orElseThrow().substring(5);
      assertThat(leases.show().orElseThrow().document().ownerId()).isEqualTo(winner);
    } finally {
      children.forEach(Process::destroyForcibly);
    }
  }

  @Test
  void leaseDocumentRoundTripsAndRefusesGarbage() {
    LeaseDocument d = new LeaseDocument(1, "o", "h", 7, 10, 20, 1000);
    assertThat(LeaseDocument.parse(d.toJson())).isEqualTo(d);
    assertThat(d.expiredAt(20 + 1_000_000)).isFalse();
    assertThat(d.expiredAt(20 + 1_000_001)).isTrue();
    for (String bad : List.of("", "[]", "{}", "not json", "{\"format_version\":1}",
        "{\"format_version\":1,\"owner_id\":\"o\",\"host\":\"h\",\"pid\":\"7\",\"acquired_at_micros\":1,"
            + "\"renewed_at_micros\":1,\"ttl_ms\":1}")) {
      assertThatThrownBy(() -> LeaseDocument.parse(bad.getBytes(StandardCharsets.UTF_8)))
          .as(bad).isInstanceOf(IllegalArgumentException.class);
    }
  }
}
