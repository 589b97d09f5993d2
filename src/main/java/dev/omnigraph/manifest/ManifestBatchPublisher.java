package dev.omnigraph.manifest;

import dev.omnigraph.api.TableKey;
import dev.omnigraph.api.GraphCommit;
import dev.omnigraph.api.UnsupportedStorageVersion;
import dev.omnigraph.api.storage.StorageConfig;
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
 * intent, then, in one Lance commit with zero Lance retries, appends the pre-minted
 * {@code graph_commit} row as lineage and replaces the state fragment it read with the new state
 * (table pins, registrations, the {@code graph_head:<branch>} row); see {@link ManifestLayout}.
 * Because every publish on a branch removes the state fragment it read, two publishers from the
 * same manifest version cannot both land. A rejected attempt is settled by re-reading: the intent's commit row present means it
 * landed; a moved head or identity is a {@link dev.omnigraph.api.ReadSetChanged} (never re-parented); otherwise the
 * rejection was unrelated contention and is retried at most {@link #MAX_CONTENTION_RETRIES} times.
 * After a successful publish nothing logical is written: only, when due, a physical-only merge of
 * the newest lineage fragments (same commits and state, new version) and then the writer deleting
 * its sidecar.
 */
public final class ManifestBatchPublisher {

  /** Bounded retries for row-level contention that left the head unchanged. */
  public static final int MAX_CONTENTION_RETRIES = 5;

  private static final org.jboss.logging.Logger LOG = org.jboss.logging.Logger.getLogger(ManifestBatchPublisher.class);

  private final StorageConfig config;
  private final ManifestStates states;

  private final BranchRefs refs;
  /** The writer-lease check before each CAS attempt (none for a graph being created). */
  private final dev.omnigraph.lease.WriterFence fence;
  private final dev.omnigraph.util.BoundedRetry.Sleeper sleeper = dev.omnigraph.util.BoundedRetry.REAL;

  /**
   * A publisher that learns branch identities from Lance's branch listing, with manifest states of
   * its own (a test): nothing it learns is shared with the root's handles.
   */
  public ManifestBatchPublisher(StorageConfig config) {
    this(config, BranchRefs.listing(), dev.omnigraph.lease.WriterFence.NONE, ManifestStates.unshared(config));
  }

  /**
   * A publisher that reads a branch's identity from its own ref through {@code storage} (one GET,
   * not a listing of every branch; see {@link BranchRefs}), with manifest states of its own (a test).
   */
  public ManifestBatchPublisher(StorageConfig config, dev.omnigraph.storage.StorageAdapter storage) {
    this(config, BranchRefs.direct(storage), dev.omnigraph.lease.WriterFence.NONE, ManifestStates.unshared(config));
  }

  /**
   * As {@link #ManifestBatchPublisher(StorageConfig, dev.omnigraph.storage.StorageAdapter)}, sharing
   * {@code states} (the root's part) and checking {@code fence} before every CAS attempt: a process
   * that lost the graph's writer lease publishes nothing (the writer then answers as after any
   * post-effect failure).
   */
  public ManifestBatchPublisher(StorageConfig config, dev.omnigraph.storage.StorageAdapter storage,
      dev.omnigraph.lease.WriterFence fence, ManifestStates states) {
    this(config, BranchRefs.direct(storage), fence, states);
  }

  private ManifestBatchPublisher(StorageConfig config, BranchRefs refs, dev.omnigraph.lease.WriterFence fence,
      ManifestStates states) {
    this.config = Objects.requireNonNull(config);
    this.states = Objects.requireNonNull(states, "states");
    this.refs = refs;
    this.fence = Objects.requireNonNull(fence, "fence");
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
   * @param tombstones tables to retire (schema apply's dropped types): invisible from this commit on
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
      long createdAtMicros,
      List<TableRegistration> tombstones) {

    public Intent {
      registrations = List.copyOf(registrations);
      updates = List.copyOf(updates);
      tombstones = List.copyOf(tombstones);
    }

    /** An intent that retires no table (every writer but schema apply). */
    public Intent(String branch, Optional<String> expectedIdentity, Optional<String> expectedHead,
        List<TableRegistration> registrations, List<TableVersionUpdate> updates, String commitId,
        Optional<String> actor, Optional<String> mergedParent, long createdAtMicros) {
      this(branch, expectedIdentity, expectedHead, registrations, updates, commitId, actor, mergedParent,
          createdAtMicros, List.of());
    }
  }

  /** A table to register in the publish (or, in {@link Intent#tombstones()}, to retire). */
  public record TableRegistration(TableKey tableKey, TableIdentity identity, String location) {}

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
   * @throws dev.omnigraph.api.ReadSetChanged when the head or native identity is not the expected one
   * @throws PublishContention after too many head-preserving rejections
   * @throws UnsupportedStorageVersion when the branch's stamp is not the served one
   * @throws dev.omnigraph.api.LeaseLost when this process no longer holds the writer lease (checked
   *     before every CAS attempt); nothing was published
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
    return publish(intent, Optional.of(verified));
  }

  private Published publish(Intent intent, Optional<BranchAuthority> verified) {
    Optional<String> verifiedStamp = verified.map(BranchAuthority::stamp);
    RuntimeException[] last = {null};
    return dev.omnigraph.util.BoundedRetry.run(CONTENTION, sleeper, attempt -> {
      fence.check(); // a process that lost the writer lease must not make anything visible
      try {
        return states.withLatest(config, intent.branch(), attempt == 1 ? verifiedStamp : Optional.empty(),
            manifest -> attempt(manifest, intent, attempt, attempt == 1 ? verified : Optional.empty()));
      } catch (Rejected rejected) {
        last[0] = rejected.cause;
        return settle(intent, attempt); // landed anyway, moved (ReadSetChanged), or contention: retry
      }
    }, () -> new PublishContention(MAX_CONTENTION_RETRIES + 1, last[0]));
  }

  /** Head-preserving contention is retried with a short, jittered, capped backoff. */
  static final dev.omnigraph.util.BoundedRetry.Policy CONTENTION = new dev.omnigraph.util.BoundedRetry.Policy(
      "manifest publish", MAX_CONTENTION_RETRIES + 1, java.time.Duration.ofMillis(20), java.time.Duration.ofMillis(200),
      java.time.Duration.ofMillis(10));

  /** A CAS attempt Lance rejected: settled by a fresh read, outside the held handle. */
  private static final class Rejected extends RuntimeException {
    final RuntimeException cause;

    Rejected(RuntimeException cause) {
      super(cause.getMessage(), cause, false, false);
      this.cause = cause;
    }
  }

  private Optional<Published> attempt(ManifestDataset manifest, Intent intent, int attempt,
      Optional<BranchAuthority> verified) {
    BranchAuthority now = checkAuthority(manifest, intent, verified);
    ManifestStates.Entry read = states.entry(manifest, intent.branch());
    long next = now.manifestVersion() + 1;
    List<ManifestRow> changes = new ArrayList<>();
    for (TableRegistration r : intent.registrations()) {
      changes.add(ManifestRows.table(r.tableKey(), r.identity(), r.location(), intent.createdAtMicros()));
    }
    for (TableVersionUpdate u : intent.updates()) {
      changes.add(ManifestRows.tableVersion(u, next, intent.commitId()));
    }
    for (TableRegistration t : intent.tombstones()) {
      changes.add(ManifestRows.tombstone(t.tableKey(), t.identity(), t.location(), intent.createdAtMicros()));
    }
    changes.add(ManifestRows.head(intent.branch(), intent.commitId(), next));
    ManifestRow commit = ManifestRows.commit(intent.commitId(), intent.expectedHead(), intent.mergedParent(),
        intent.actor(), intent.createdAtMicros(), intent.branch(), next);
    List<ManifestRow> state = ManifestLayout.apply(read.read().rows(), changes);
    // The CAS: remove the state fragment this publish read and append the commit row and the new
    // state in one zero-retry Update. Two publishes from one version both remove it, so at most one
    // lands. A legacy manifest (no state fragment) is converted by its first publish here: every
    // fragment is removed (so this conflicts with any other publish from the same version) and its
    // commits are rewritten, newest first, as one lineage fragment.
    List<Integer> remove = new ArrayList<>();
    List<java.util.function.Function<org.apache.arrow.memory.BufferAllocator, org.apache.arrow.vector.VectorSchemaRoot>> fragments =
        new ArrayList<>();
    if (read.read().stateFragment().isPresent()) {
      remove.add(read.read().stateFragment().get());
    } else if (!manifest.fragments().isEmpty()) {
      List<ManifestRow> legacyLineage = new ArrayList<>();
      Lineage.newestFirst(manifest, Optional.empty(), c -> legacyLineage.add(ManifestRows.commit(c.id(), c.parent(),
          c.mergedParent(), c.actor(), c.createdAtMicros(), c.branch(), c.manifestVersion())));
      manifest.fragments().forEach(f -> remove.add(f.id()));
      fragments.add(allocator -> ManifestColumns.encode(legacyLineage, allocator));
    }
    fragments.add(allocator -> ManifestColumns.encode(List.of(commit), allocator));
    fragments.add(allocator -> ManifestColumns.encode(withMarker(state, next), allocator));
    ManifestDataset.Landed landed;
    try {
      landed = manifest.rewrite(remove, List.of(), fragments);
    } catch (RuntimeException rejected) {
      throw new Rejected(rejected);
    }
    if (landed.version() != next) {
      // Our commit removed the state fragment, so no commit can interleave on this branch; a
      // different version means the manifest was written outside the publisher.
      states.forget(intent.branch());
      throw new ManifestCorrupt(ManifestRows.commitObjectId(intent.commitId()),
          "landed at manifest version " + landed.version() + ", expected " + next);
    }
    dev.omnigraph.util.Failpoints.hit(dev.omnigraph.util.Failpoint.MANIFEST_AFTER_PUBLISH_COMMIT);
    states.published(intent.branch(), landed.version(), landed.stamp(), state, lastFragment(manifest));
    mergeLineage(manifest, intent.branch(), state);
    return Optional.of(new Published(commitOf(intent, landed.version()), landed.version(), attempt));
  }

  private static List<ManifestRow> withMarker(List<ManifestRow> state, long manifestVersion) {
    List<ManifestRow> rows = new ArrayList<>(state.size() + 1);
    rows.add(ManifestRows.stateMarker(manifestVersion));
    rows.addAll(state);
    return rows;
  }

  private static int lastFragment(ManifestDataset manifest) {
    List<ManifestDataset.FragmentRef> fragments = manifest.fragments();
    return fragments.get(fragments.size() - 1).id();
  }

  private static GraphCommit commitOf(Intent intent, long manifestVersion) {
    return new GraphCommit(intent.commitId(), intent.expectedHead(), intent.mergedParent(), intent.actor(),
        intent.createdAtMicros(), intent.branch(), manifestVersion);
  }

  /**
   * Every publish appends a one-row lineage fragment; when the newest ones are due (see
   * {@link ManifestLayout#mergePlan}) they are rewritten into one, with the state fragment copied
   * after it so it stays last. Physical only: the same commits and state at a new version. Runs
   * after the publish landed, under the caller's gates; the rows it rewrites are bounded by the
   * merge tier (amortised, each commit row is rewritten once per tier). A failure (a concurrent
   * publish of another process, say) only postpones it to a later publish.
   */
  private void mergeLineage(ManifestDataset manifest, String branch, List<ManifestRow> state) {
    List<ManifestDataset.FragmentRef> fragments = manifest.fragments();
    int stateFragment = fragments.get(fragments.size() - 1).id();
    List<ManifestDataset.FragmentRef> plan =
        ManifestLayout.mergePlan(fragments.subList(0, fragments.size() - 1));
    if (plan.isEmpty()) {
      return;
    }
    try {
      // Newest first, as every lineage fragment stores its rows (see Lineage).
      List<ManifestRow> commits = new ArrayList<>();
      for (int i = plan.size() - 1; i >= 0; i--) {
        manifest.scanFragment(plan.get(i).id(), List.of(), java.util.Optional.empty(),
            batch -> commits.addAll(ManifestColumns.decode(batch)));
      }
      List<Integer> remove = new ArrayList<>(plan.stream().map(ManifestDataset.FragmentRef::id).toList());
      remove.add(stateFragment);
      long version = manifest.version() + 1;
      ManifestDataset.Landed landed = manifest.rewrite(remove, List.of(), List.of(
          allocator -> ManifestColumns.encode(commits, allocator),
          allocator -> ManifestColumns.encode(withMarker(state, version), allocator)));
      states.published(branch, landed.version(), landed.stamp(), state, lastFragment(manifest));
    } catch (RuntimeException e) {
      states.forget(branch);
      LOG.warnf("manifest lineage merge of %s failed; it will be retried after a later publish: %s", branch, e.getMessage());
    }
  }

  /**
   * Reads the branch's latest authority and applies the intent's checks. A writer's authority
   * revalidated under the branch gate it still holds, at exactly the handle's version, is that
   * reading already (its identity was read from the branch's ref under the gate; only a branch
   * control holding the same gate can change it), so it is not read a third time.
   */
  private BranchAuthority checkAuthority(ManifestDataset manifest, Intent intent, Optional<BranchAuthority> verified) {
    ManifestReader.checkStamp(config, manifest);
    BranchAuthority now;
    try {
      now = verified.isPresent() && verified.get().stamp().equals(manifest.stamp())
          ? verified.get()
          : states.capture(manifest, intent.branch(), refs);
    } catch (dev.omnigraph.api.NotFound gone) {
      throw new dev.omnigraph.api.ReadSetChanged(new dev.omnigraph.api.ReadSetMember.BranchIdentity(intent.branch()),
          intent.expectedIdentity(), Optional.empty());
    }
    if (!now.nativeIdentity().equals(intent.expectedIdentity())) {
      throw new dev.omnigraph.api.ReadSetChanged(new dev.omnigraph.api.ReadSetMember.BranchIdentity(intent.branch()),
          intent.expectedIdentity(), now.nativeIdentity());
    }
    if (!now.head().equals(intent.expectedHead())) {
      throw new dev.omnigraph.api.ReadSetChanged(new dev.omnigraph.api.ReadSetMember.GraphHead(intent.branch()), intent.expectedHead(),
          now.head());
    }
    return now;
  }

  /**
   * After a rejected commit: landed anyway, moved, or plain contention (empty). Whether the intent's
   * commit landed is read from the newest lineage only, back to the head the intent expected.
   */
  private Optional<Published> settle(Intent intent, int attempt) {
    try (ManifestDataset manifest = openBranch(intent.branch())) {
      BranchAuthority now = states.capture(manifest, intent.branch(), refs);
      GraphCommit[] mine = new GraphCommit[1];
      Lineage.newestFirst(manifest, states.entry(manifest, intent.branch()).read().stateFragment(), c -> {
        if (c.id().equals(intent.commitId())) {
          mine[0] = c;
          return false;
        }
        return intent.expectedHead().map(h -> !c.id().equals(h)).orElse(true);
      });
      if (mine[0] != null) {
        return Optional.of(new Published(mine[0], mine[0].manifestVersion(), attempt));
      }
      Optional<String> head = now.head();
      if (!head.equals(intent.expectedHead())) {
        throw new dev.omnigraph.api.ReadSetChanged(new dev.omnigraph.api.ReadSetMember.GraphHead(intent.branch()), intent.expectedHead(), head);
      }
      return Optional.empty();
    }
  }

  private ManifestDataset openBranch(String branch) {
    return ManifestDataset.open(states.lance(), config,
        branch.equals(ManifestState.MAIN) ? Optional.empty() : Optional.of(branch), OptionalLong.empty());
  }
}
