package dev.omnigraph.manifest;

import dev.omnigraph.api.UnsupportedStorageVersion;
import dev.omnigraph.storage.StorageConfig;
import dev.omnigraph.table.ManifestDataset;
import dev.omnigraph.table.NativeBranch;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The only writer of {@code __manifest} rows after init: makes a prepared write visible with one
 * compare-and-swap on the branch's graph head.
 *
 * <p>Contract of {@link #publish}: each attempt opens the branch's latest manifest, re-checks the
 * storage stamp, the exact native branch identity and the exact effective graph head against the
 * intent, then upserts the new table pins, the pre-minted {@code graph_commit} row and the
 * {@code graph_head:<branch>} row in one Lance commit with zero Lance retries. Because every publish
 * on a branch rewrites that branch's head row, two publishers from the same manifest version cannot
 * both land. A rejected attempt is settled by re-reading: the intent's commit row present means it
 * landed; a moved head or identity is a {@link HeadMismatch} (never re-parented); otherwise the
 * rejection was unrelated contention and is retried at most {@link #MAX_CONTENTION_RETRIES} times.
 * After a successful publish nothing logical is written: only a physical-only compaction of the
 * manifest (same rows, new version) and then the writer deleting its sidecar.
 */
public final class ManifestBatchPublisher {

  /** Bounded retries for row-level contention that left the head unchanged. */
  public static final int MAX_CONTENTION_RETRIES = 5;

  /** Manifest fragments beyond which a publish compacts the branch's manifest. */
  static final int COMPACT_AT_FRAGMENTS = 32;

  private static final org.jboss.logging.Logger LOG = org.jboss.logging.Logger.getLogger(ManifestBatchPublisher.class);

  private final StorageConfig config;
  private final ManifestStates states;

  public ManifestBatchPublisher(StorageConfig config) {
    this.config = Objects.requireNonNull(config);
    this.states = ManifestStates.forRoot(config.rootUri());
  }

  /**
   * A prepared publish.
   *
   * @param branch graph branch ({@code main} or a name)
   * @param expectedIdentity the native branch identity captured at prepare (empty for main)
   * @param expectedHead the exact effective head captured at prepare (empty: none, at genesis)
   * @param registrations tables to register (init, schema apply)
   * @param updates table pins to set
   * @param commitId the pre-minted ULID of the new graph commit
   * @param actor the writer's actor id
   * @param mergedParent the merged source head, for a merge commit
   * @param createdAtMicros commit time
   */
  public record Intent(
      String branch,
      Optional<String> expectedIdentity,
      Optional<String> expectedHead,
      List<TableRegistration> registrations,
      List<TableVersionUpdate> updates,
      String commitId,
      Optional<String> actor,
      Optional<String> mergedParent,
      long createdAtMicros) {}

  /** A table to register in the publish. */
  public record TableRegistration(String tableKey, TableIdentity identity, String location) {}

  /**
   * The landed commit and the manifest version it produced.
   *
   * @param commit the commit row as published (what a caller reports, without reading it back)
   */
  public record Published(GraphCommit commit, long manifestVersion, int attempts) {
    public String commitId() {
      return commit.id();
    }
  }

  /**
   * Publishes {@code intent}; see the class contract.
   *
   * @throws HeadMismatch when the head or native identity is not the expected one
   * @throws PublishContention after too many head-preserving rejections
   * @throws UnsupportedStorageVersion when the branch's stamp is not the served one
   */
  public Published publish(Intent intent) {
    return publish(intent, Optional.empty());
  }

  /**
   * As {@link #publish(Intent)}, for a writer that revalidated {@code verified} under the branch
   * gate it still holds: the first CAS attempt commits from that version without probing again
   * (Lance's commit rejects it if the branch moved since, and the rejection is settled as usual).
   */
  public Published publish(Intent intent, BranchAuthority verified) {
    if (!verified.branch().equals(intent.branch())) {
      throw new IllegalArgumentException("authority of " + verified.branch() + " for a publish on " + intent.branch());
    }
    return publish(intent, Optional.of(verified.stamp()));
  }

  private Published publish(Intent intent, Optional<String> verifiedStamp) {
    RuntimeException last = null;
    for (int attempt = 1; attempt <= MAX_CONTENTION_RETRIES + 1; attempt++) {
      int n = attempt;
      Optional<Published> done;
      try {
        done = states.withLatest(config, intent.branch(), attempt == 1 ? verifiedStamp : Optional.empty(),
            manifest -> attempt(manifest, intent, n));
      } catch (Rejected rejected) {
        last = rejected.cause;
        Optional<Published> settled = settle(intent, attempt);
        if (settled.isPresent()) {
          return settled.get();
        }
        backoff(attempt);
        continue;
      }
      return done.orElseThrow();
    }
    throw new PublishContention(MAX_CONTENTION_RETRIES + 1, last);
  }

  /** A CAS attempt Lance rejected: settled by a fresh read, outside the held handle. */
  private static final class Rejected extends RuntimeException {
    final RuntimeException cause;

    Rejected(RuntimeException cause) {
      super(cause.getMessage(), cause, false, false);
      this.cause = cause;
    }
  }

  private Optional<Published> attempt(ManifestDataset manifest, Intent intent, int attempt) {
    String readStamp = manifest.stamp();
    BranchAuthority now = checkAuthority(manifest, intent);
    long next = now.manifestVersion() + 1;
    List<ManifestRow> rows = new ArrayList<>(rowsFor(intent, next));
    // The CAS: delete the head row this branch resolves through and append the new rows in one
    // zero-retry Update. A first publish on a branch re-adds the inherited head row it deleted.
    Optional<ManifestStates.HeadRow> replaced = states.headRow(manifest, now);
    replaced.filter(h -> !h.own()).ifPresent(h -> rows.add(h.row()));
    ManifestDataset.Replaced done;
    try {
      done = manifest.replace(allocator -> ManifestColumns.encode(rows, allocator),
          replaced.map(h -> List.of(h.address())).orElse(List.of()));
    } catch (RuntimeException rejected) {
      throw new Rejected(rejected);
    }
    ManifestDataset.Landed landed = done.landed();
    if (landed.version() != next) {
      // Our commit rewrote the head row, so no commit can interleave on this branch; a
      // different version means the manifest was written outside the publisher.
      states.forget(intent.branch());
      throw new ManifestCorrupt(ManifestRows.commitObjectId(intent.commitId()),
          "landed at manifest version " + landed.version() + ", expected " + next);
    }
    states.published(intent.branch(), readStamp, rows, landed.version(), landed.stamp(), done.addresses());
    if (landed.fragments() > COMPACT_AT_FRAGMENTS) {
      compact(manifest, intent.branch());
    }
    return Optional.of(new Published(commitOf(intent, landed.version()), landed.version(), attempt));
  }

  private static GraphCommit commitOf(Intent intent, long manifestVersion) {
    return new GraphCommit(intent.commitId(), intent.expectedHead(), intent.mergedParent(), intent.actor(),
        intent.createdAtMicros(), intent.branch(), manifestVersion);
  }

  /**
   * Every publish adds a fragment (and a deletion vector for the rewritten head row), and every
   * state scan and CAS join reads all of them, so an uncompacted manifest makes each write cost
   * grow with history. Compacting past {@link #COMPACT_AT_FRAGMENTS} keeps it flat. Runs after the
   * publish landed, under the caller's gates; a failure only costs speed, never correctness.
   */
  private void compact(ManifestDataset manifest, String branch) {
    try {
      manifest.compact();
      manifest.refreshLatest();
      states.compacted(manifest, branch);
    } catch (RuntimeException e) {
      states.forget(branch);
      LOG.warnf("manifest compaction of %s failed; it will be retried after a later publish: %s", branch, e.getMessage());
    }
  }

  /** Reads the branch's latest authority and applies the intent's checks. */
  private BranchAuthority checkAuthority(ManifestDataset manifest, Intent intent) {
    ManifestReader.checkStamp(config, manifest);
    BranchAuthority now;
    try {
      now = states.capture(manifest, intent.branch());
    } catch (dev.omnigraph.api.NotFound gone) {
      throw new HeadMismatch("branch_identity:" + intent.branch(), intent.expectedIdentity(), Optional.empty());
    }
    if (!now.nativeIdentity().equals(intent.expectedIdentity())) {
      throw new HeadMismatch("branch_identity:" + intent.branch(), intent.expectedIdentity(), now.nativeIdentity());
    }
    if (!now.head().equals(intent.expectedHead())) {
      throw new HeadMismatch(ManifestRows.headId(intent.branch()), intent.expectedHead(), now.head());
    }
    return now;
  }

  /** After a rejected upsert: landed anyway, moved, or plain contention (empty). */
  private Optional<Published> settle(Intent intent, int attempt) {
    try (ManifestDataset manifest = openBranch(intent.branch())) {
      BranchAuthority now = states.capture(manifest, intent.branch());
      GraphCommit mine = now.state().commits().get(intent.commitId());
      if (mine != null) {
        return Optional.of(new Published(mine, mine.manifestVersion(), attempt));
      }
      Optional<String> head = now.head();
      if (!head.equals(intent.expectedHead())) {
        throw new HeadMismatch(ManifestRows.headId(intent.branch()), intent.expectedHead(), head);
      }
      return Optional.empty();
    }
  }

  private ManifestDataset openBranch(String branch) {
    return ManifestDataset.open(config,
        branch.equals(ManifestState.MAIN) ? Optional.empty() : Optional.of(branch), OptionalLong.empty());
  }

  private static List<ManifestRow> rowsFor(Intent intent, long manifestVersion) {
    List<ManifestRow> rows = new ArrayList<>();
    for (TableRegistration r : intent.registrations()) {
      rows.add(ManifestRows.table(r.tableKey(), r.identity(), r.location(), intent.createdAtMicros()));
    }
    for (TableVersionUpdate u : intent.updates()) {
      rows.add(ManifestRows.tableVersion(u, manifestVersion, intent.commitId()));
    }
    rows.add(ManifestRows.commit(intent.commitId(), intent.expectedHead(), intent.mergedParent(),
        intent.actor(), intent.createdAtMicros(), intent.branch(), manifestVersion));
    rows.add(ManifestRows.head(intent.branch(), intent.commitId(), manifestVersion));
    return rows;
  }

  private static void backoff(int attempt) {
    try {
      Thread.sleep(Math.min(200, 10L << attempt) + (long) (Math.random() * 10));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted during publish retry", e);
    }
  }
}
