package dev.omnigraph.manifest;

import dev.omnigraph.api.GraphCommit;
import dev.omnigraph.api.Conflict;
import dev.omnigraph.api.NotFound;
import dev.omnigraph.storage.StorageAdapter;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.table.ManifestDataset;
import dev.omnigraph.table.NativeBranch;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.Optional;
import java.util.OptionalLong;
import dev.omnigraph.util.Failpoint;
import dev.omnigraph.util.Failpoints;
import org.jboss.logging.Logger;

/**
 * The engine's read and branch-control view of {@code __manifest}: coherent state scans, native
 * branch listing, and graph branch create/delete with the write path's ambiguous-result classification
 * ("Native graph-branch control recovery"). Branch create/delete write no graph lineage and no
 * sidecar; the Lance branch contents are their only authority.
 */
public final class GraphManifest {

  private static final Logger LOG = Logger.getLogger(GraphManifest.class);
  private static final String MAIN = ManifestState.MAIN;

  private final StorageConfig config;
  private final StorageAdapter storage;
  private final ManifestStates states;
  private final BranchRefs refs;

  /** The manifest of the root {@code config} names, with states of its own (a test, a tool). */
  public GraphManifest(StorageConfig config, StorageAdapter storage) {
    this(config, storage, ManifestStates.unshared(config));
  }

  /** The manifest of the root {@code config} names, sharing {@code states}, that root's part. */
  public GraphManifest(StorageConfig config, StorageAdapter storage, ManifestStates states) {
    this.config = config;
    this.storage = storage;
    this.states = java.util.Objects.requireNonNull(states, "states");
    this.refs = BranchRefs.direct(storage);
  }

  /** Checks main's stamp before any branch state is read. */
  public int checkStamp() {
    // On the held handle: the capture that follows an open reuses it instead of fetching the
    // same Lance manifest again.
    return states.withLatest(config, MAIN, m -> ManifestReader.checkStamp(config, m));
  }

  /**
   * Captures {@code branch}'s authority from one open of its latest manifest: native identity and
   * parent chain from that handle's branch listing, state from the same version (decoded once per
   * version in this process, see {@link ManifestStates}).
   *
   * @throws NotFound when the branch does not exist
   */
  public BranchAuthority capture(String branch) {
    return notFoundIfGone(branch, () -> states.withLatest(config, branch, m -> states.capture(m, branch, refs)));
  }

  /**
   * As {@link #capture(String)} for a query: the branch's latest version is asked as for any capture
   * (a write by this or another process is seen by the next read), and while its stamp is unchanged
   * the last read capture, ref and state, is reused instead of resolved again. Writers keep
   * {@link #capture(String)}: their authority re-reads the ref.
   *
   * @throws NotFound when the branch does not exist
   */
  public BranchAuthority captureForRead(String branch) {
    return notFoundIfGone(branch, () -> {
      try {
        return states.withLatest(config, branch, m -> checkedForRead(m, branch));
      } catch (CreatedAgain again) {
        // The held handle and the last capture are of the branch that was deleted: start over.
        states.forget(branch);
        return states.withLatest(config, branch, m -> checkedForRead(m, branch));
      }
    });
  }

  /**
   * The read capture of {@code branch}, checked against the branch's identity now where another
   * process may have deleted it and created it again at the same manifest version number (the
   * latest-version probe then sees nothing new): one GET of its ref. Not on main, which is never
   * deleted, nor in the writer-lease holder, where every delete and create runs and forgets what it
   * replaces (docs/maintenance.md, "Branch names, deleted and used again").
   */
  private BranchAuthority checkedForRead(ManifestDataset m, String branch) {
    BranchAuthority c = states.captureForRead(m, branch, refs);
    if (!branch.equals(MAIN) && !states.soleWriter() && !refs.identity(m, branch).equals(c.nativeIdentity())) {
      throw new CreatedAgain();
    }
    return c;
  }

  /** The branch a read captured is not the one its name holds now. */
  private static final class CreatedAgain extends RuntimeException {
    CreatedAgain() {
      super(null, null, false, false);
    }
  }

  /**
   * Runs a read of {@code branch}'s manifest; when it fails because the branch is gone (a delete
   * raced it: Lance reports the missing tree as an untyped error) the failure is {@link NotFound}.
   */
  private <T> T notFoundIfGone(String branch, java.util.function.Supplier<T> read) {
    try {
      return read.get();
    } catch (NotFound e) {
      throw e;
    } catch (Exception e) { // lance-java also throws undeclared IOExceptions (a missing branch tree)
      if (!branch.equals(MAIN) && branches().stream().noneMatch(b -> b.name().equals(branch))) {
        throw new NotFound("branch", branch);
      }
      throw e instanceof RuntimeException r ? r : new IllegalStateException(e.getMessage(), e);
    }
  }

  /** As {@link #capture(String)}, from an open handle of the branch's manifest. */
  BranchAuthority capture(ManifestDataset m, String branch) {
    return states.capture(m, branch, refs);
  }

  /**
   * The cheapest exact check that {@code captured} still holds: one open of the branch's latest
   * manifest (and, off main, its branch listing). Returns {@code captured} itself when the branch
   * identity and the exact manifest version are unchanged, else a fresh capture.
   */
  public BranchAuthority recapture(BranchAuthority captured) {
    return notFoundIfGone(captured.branch(), () -> states.withLatest(config, captured.branch(), m -> {
      if (m.stamp().equals(captured.stamp())) {
        if (captured.branch().equals(MAIN)) {
          return captured;
        }
        Optional<String> identity = refs.resolve(m, captured.branch()).map(r -> r.branch().identifier());
        if (identity.equals(captured.nativeIdentity())) {
          return captured;
        }
      }
      return capture(m, captured.branch());
    }));
  }

  /** The latest published state of {@code branch}. */
  public ManifestState state(String branch) {
    return capture(branch).state();
  }

  /**
   * The latest state of {@code branch} this process knows (read or published here), without any
   * storage request; empty when none is cached. For advisory decisions only (e.g. whether a
   * table is due for compaction): it may be behind another process's publishes.
   */
  public Optional<ManifestState> knownState(String branch) {
    return states.known(branch);
  }

  /** The state of {@code branch} at an exact manifest version (time travel). */
  public ManifestState stateAt(String branch, long manifestVersion) {
    try (ManifestDataset m = open(branch, OptionalLong.of(manifestVersion))) {
      return ManifestReader.read(m, branch);
    }
  }

  /** Native branches (every graph branch except main). */
  public List<NativeBranch> branches() {
    try (ManifestDataset m = open(MAIN, OptionalLong.empty())) {
      return m.branches();
    }
  }

  /** Ancestors of {@code branch}, nearest first, ending with main. */
  public List<String> parentChain(String branch) {
    if (branch.equals(MAIN)) {
      return List.of();
    }
    return ManifestReader.parentChain(branches(), branch);
  }

  /** The native identity of {@code branch} (empty for main, which cannot be recreated). */
  public Optional<String> identity(String branch) {
    if (branch.equals(MAIN)) {
      return Optional.empty();
    }
    return branches().stream().filter(b -> b.name().equals(branch)).map(NativeBranch::identifier).findFirst()
        .or(() -> {
          throw new NotFound("branch", branch);
        });
  }

  /**
   * Offers the commits of {@code authority}'s manifest version to {@code visitor} newest first
   * (manifest version, created-at, commit id, descending) until it returns false: a caller that
   * needs a page or the commits since a known one reads only those lineage fragments.
   */
  public void lineage(BranchAuthority authority, Predicate<GraphCommit> visitor) {
    // The capture left this process's held handle of the branch at exactly the captured version
    // (unless another publish moved it since): reading through it saves opening that version again.
    boolean read = states.withLatest(config, authority.branch(), Optional.of(authority.stamp()), m -> {
      if (!m.stamp().equals(authority.stamp())) {
        return false;
      }
      Lineage.newestFirst(m, states.entry(m, authority.branch()).read().stateFragment(), visitor);
      return true;
    });
    if (!read) {
      try (ManifestDataset m = open(authority.branch(), OptionalLong.of(authority.manifestVersion()))) {
        Lineage.newestFirst(m, states.entry(m, authority.branch()).read().stateFragment(), visitor);
      }
    }
  }

  /** Every commit reachable from {@code authority}'s head, newest first (reads the whole lineage). */
  public List<GraphCommit> history(BranchAuthority authority) {
    List<GraphCommit> out = new ArrayList<>();
    lineage(authority, c -> out.add(c) || true);
    return out;
  }

  /**
   * Which of {@code commitIds} are in {@code authority}'s lineage newer than {@code since} (a commit
   * known to be in it, e.g. the head a writer prepared against): reads back only to {@code since};
   * the whole lineage when {@code since} is empty.
   */
  public Set<String> landedSince(BranchAuthority authority, Set<String> commitIds, Optional<String> since) {
    Set<String> found = new HashSet<>();
    lineage(authority, c -> {
      if (commitIds.contains(c.id())) {
        found.add(c.id());
      }
      return found.size() < commitIds.size() && !since.equals(Optional.of(c.id()));
    });
    return found;
  }

  /**
   * Finds a commit by id on any branch: main first, then every branch, each by an id match over
   * its lineage (see {@link Lineage#find}).
   */
  public Optional<GraphCommit> findCommit(String commitId) {
    List<String> names = new ArrayList<>();
    names.add(MAIN);
    branches().forEach(b -> names.add(b.name()));
    for (String b : names) {
      BranchAuthority authority = capture(b);
      Optional<GraphCommit> hit;
      try (ManifestDataset m = open(b, OptionalLong.of(authority.manifestVersion()))) {
        hit = Lineage.find(m, states.entry(m, b).read().stateFragment(), commitId);
      }
      if (hit.isPresent()) {
        return hit;
      }
    }
    return Optional.empty();
  }

  /** A commit and the manifest state its publish produced (what a read at the commit reads). */
  public record CommitState(GraphCommit commit, ManifestState state) {}

  /**
   * The commit {@code commitId} and its state, as {@link #findCommit} and {@link #stateAt} answer
   * them, remembered per root: a second read at the same commit costs no lineage scan and no state
   * read. Off main it costs what a head read of the commit's branch costs (one capture), which
   * proves the branch is still the one the commit was found on; a branch deleted or re-created
   * since resolves afresh, as the first time.
   */
  public Optional<CommitState> commitState(String commitId) {
    Optional<ManifestStates.ResolvedCommit> known = states.resolvedCommit(commitId);
    if (known.isPresent()) {
      ManifestStates.ResolvedCommit r = known.get();
      if (r.nativeIdentity().isEmpty() || sameIdentity(r.commit().branch(), r.nativeIdentity())) {
        return Optional.of(new CommitState(r.commit(), r.state()));
      }
      states.forgetCommit(commitId);
    }
    Optional<GraphCommit> found = findCommit(commitId);
    if (found.isEmpty()) {
      return Optional.empty();
    }
    GraphCommit c = found.get();
    // The branch's identity now: only a delete and re-create racing this first resolution could
    // pair it with the other branch's state, the same window findCommit then stateAt always had.
    Optional<String> identity = c.branch().equals(MAIN) ? Optional.empty() : capture(c.branch()).nativeIdentity();
    ManifestState state = stateAt(c.branch(), c.manifestVersion());
    states.resolved(new ManifestStates.ResolvedCommit(c, identity, state));
    return Optional.of(new CommitState(c, state));
  }

  private boolean sameIdentity(String branch, Optional<String> identity) {
    try {
      return capture(branch).nativeIdentity().equals(identity);
    } catch (NotFound gone) {
      return false;
    }
  }

  /**
   * Creates graph branch {@code name} from {@code from}'s latest manifest version. The caller holds
   * the schema, both branch gates and every table gate, and has validated the name.
   *
   * @throws Conflict if the name is live or path-overlaps a live name, or the native result is
   *     foreign
   */
  public void createBranch(String name, String from, java.util.function.Consumer<List<String>> requireDisjoint) {
    List<NativeBranch> live = branches();
    List<String> liveNames = new ArrayList<>(live.stream().map(NativeBranch::name).toList());
    requireDisjoint.accept(liveNames);
    requireBranch(from);
    Optional<String> fromRef = from.equals(MAIN) ? Optional.empty() : Optional.of(from);
    RuntimeException last = null;
    for (int attempt = 1; attempt <= 2; attempt++) {
      // An absent ref makes a same-name tree unreachable garbage (Lance clones the tree before it
      // writes the branch contents); reclaiming it is what makes same-name create idempotent.
      storage.deletePrefix(treeKey(name));
      long fromVersion;
      try (ManifestDataset m = open(from, OptionalLong.empty())) {
        fromVersion = m.version();
        try {
          states.forget(name);
          m.createBranch(name, fromRef, fromVersion);
          Failpoints.hit(Failpoint.MANIFEST_BRANCH_CREATE_AFTER_NATIVE);
          return;
        } catch (RuntimeException e) {
          last = e;
        }
      }
      // Ambiguous result: accept only our exact branch (parent, parent version) that opens.
      Optional<NativeBranch> now = branches().stream().filter(b -> b.name().equals(name)).findFirst();
      if (now.isPresent()) {
        NativeBranch b = now.get();
        if (b.parent().equals(fromRef) && b.parentVersion() == fromVersion && opens(name)) {
          LOG.infof("branch %s: native create reported %s but the branch landed exactly; accepted",
              name, last.getMessage());
          return;
        }
        throw new Conflict("branch '" + name + "' appeared with a different origin (parent "
            + b.parent().orElse(MAIN) + "@" + b.parentVersion() + ") while creating it from "
            + from + "@" + fromVersion, last);
      }
    }
    throw new IllegalStateException("creating branch '" + name + "' failed twice: " + last.getMessage(), last);
  }

  /**
   * Deletes graph branch {@code name}. The caller holds the gates. After an ambiguous native error:
   * an absent ref is success, the same identity keeps the original error, a different identity is a
   * delete/recreate conflict.
   */
  public void deleteBranch(String name) {
    if (name.equals(MAIN)) {
      throw new dev.omnigraph.api.InvalidRequest("the main branch cannot be deleted");
    }
    List<NativeBranch> live = branches();
    NativeBranch target = live.stream().filter(b -> b.name().equals(name)).findFirst()
        .orElseThrow(() -> new NotFound("branch", name));
    List<String> children = live.stream().filter(b -> b.parent().equals(Optional.of(name)))
        .map(NativeBranch::name).toList();
    if (!children.isEmpty()) {
      throw new Conflict("branch '" + name + "' has branches created from it (" + String.join(", ", children)
          + "); delete those first");
    }
    try (ManifestDataset m = open(MAIN, OptionalLong.empty())) {
      Failpoints.hit(Failpoint.MANIFEST_BRANCH_DELETE_BEFORE_NATIVE);
      states.forget(name);
      m.deleteBranch(name);
      Failpoints.hit(Failpoint.MANIFEST_BRANCH_DELETE_AFTER_NATIVE);
    } catch (RuntimeException e) {
      Optional<NativeBranch> now = branches().stream().filter(b -> b.name().equals(name)).findFirst();
      if (now.isEmpty()) {
        LOG.infof("branch %s: native delete reported %s but the ref is gone; accepted", name, e.getMessage());
      } else if (now.get().identifier().equals(target.identifier())) {
        throw e;
      } else {
        throw new Conflict("branch '" + name + "' was deleted and re-created concurrently (identity "
            + target.identifier() + " became " + now.get().identifier() + ")", e);
      }
    }
    try {
      storage.deletePrefix(treeKey(name));
    } catch (RuntimeException e) {
      // Derived cleanup: the ref is gone, so the tree is unreachable; the next create reclaims it.
      LOG.warnf("branch %s deleted; its tree cleanup failed and is left for later: %s", name, e.getMessage());
    }
  }

  private boolean opens(String branch) {
    try (ManifestDataset m = open(branch, OptionalLong.empty())) {
      return m.version() > 0;
    } catch (RuntimeException e) {
      return false;
    }
  }

  private void requireBranch(String branch) {
    if (!branch.equals(MAIN) && branches().stream().noneMatch(b -> b.name().equals(branch))) {
      throw new NotFound("branch", branch);
    }
  }

  private ManifestDataset open(String branch, OptionalLong version) {
    return ManifestDataset.open(states.lance(), config, branch.equals(MAIN) ? Optional.empty() : Optional.of(branch), version);
  }

  private static String treeKey(String branch) {
    return ManifestDataset.KEY + "/tree/" + branch;
  }
}
