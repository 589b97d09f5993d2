package dev.omnigraph.write;

import dev.omnigraph.table.TableRef;
import dev.omnigraph.api.TableKey;
import dev.omnigraph.api.CommitId;
import dev.omnigraph.api.UncoveredDrift;
import dev.omnigraph.api.PreconditionFailed;
import dev.omnigraph.api.ReadSetChanged;
import dev.omnigraph.api.RevertRefused;
import dev.omnigraph.gate.GateManager;
import dev.omnigraph.manifest.AuthorityToken;
import dev.omnigraph.manifest.BranchAuthority;
import dev.omnigraph.api.GraphCommit;
import dev.omnigraph.manifest.GraphManifest;
import dev.omnigraph.manifest.ManifestBatchPublisher;
import dev.omnigraph.manifest.ManifestState;
import dev.omnigraph.manifest.TablePin;
import dev.omnigraph.manifest.TableVersionUpdate;
import dev.omnigraph.recovery.Recovery;
import dev.omnigraph.recovery.RecoverySidecar;
import dev.omnigraph.table.CommitOutcome;
import dev.omnigraph.table.TableAt;
import dev.omnigraph.util.Failpoint;
import dev.omnigraph.util.Failpoints;
import dev.omnigraph.util.Micros;
import dev.omnigraph.util.Ulid;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The revert writer (docs/write-path.md, "Revert"): one commit on a branch whose graph state equals
 * a named commit of its history. Only a planner: it reads the head and the commit's state, and per
 * table whose pin differs stages a Lance {@code Restore} of the commit's version on the branch's own
 * ref (pre-minted uuid, read version = the pin, landing at pin + 1), so its effects have a
 * mutation's exact shape and recovery settles them as one ({@code RevertRecovery}). The commit
 * template does the rest.
 *
 * <p>Refused before anything is written ({@link RevertRefused}): a commit outside the branch's
 * lineage, a schema change since it, a table the branch cannot restore on its own ref.
 */
public final class RevertAttempt {

  /**
   * What a revert did.
   *
   * @param restored the tables given a new version, in table-key order (empty: nothing changed)
   * @param commit the published commit; empty when the state already was the target's
   */
  public record Result(String branch, String to, List<Restored> restored, Optional<GraphCommit> commit,
      long manifestVersion) {

    /** The answer of every front end. */
    public dev.omnigraph.api.RevertOutput output(String uri) {
      return new dev.omnigraph.api.RevertOutput(uri, branch, to, commit.isPresent(),
          commit.map(GraphCommit::id).orElse(null), manifestVersion, restored.stream()
          .map(r -> new dev.omnigraph.api.RevertOutput.Table(r.tableKey().toString(), r.fromVersion(), r.restoredVersion(),
              r.toVersion(), r.rowCount())).toList());
    }
  }

  /** One table: its pin before, the version whose content it has again, its new version. */
  public record Restored(TableKey tableKey, long fromVersion, long restoredVersion, long toVersion, long rowCount) {}

  /** A planned restore: the head's pin, the version to restore, the target's row count. */
  private record Planned(TablePin pin, long restore, long rowCount, String uuid) {}

  private final WriterParts parts;
  private final Function<GraphCommit, String> schemaAt;

  /** @param schemaAt the accepted-schema identity when a commit was published */
  public RevertAttempt(WriterParts parts, Function<GraphCommit, String> schemaAt) {
    this.parts = Objects.requireNonNull(parts);
    this.schemaAt = Objects.requireNonNull(schemaAt);
  }

  /**
   * Reverts branch {@code on} to commit {@code to}. Not repreparable: a head that moves before the
   * effects is {@link ReadSetChanged}, as for an update (the caller chose the target from a head).
   *
   * @throws RevertRefused see the class comment (nothing written)
   * @throws PreconditionFailed when {@code ifCommit} is not the head
   */
  public Result run(dev.omnigraph.api.BranchName on, CommitId to, Optional<String> actor,
      Optional<CommitId> ifCommit) {
    String branch = on.value();
    return CommitTemplate.reprepared("revert on " + branch, moved -> false,
        n -> once(branch, to.value(), actor, ifCommit));
  }

  private Result once(String branch, String to, Optional<String> actor, Optional<CommitId> ifCommit) {
    parts.recovery().heal(branch);
    BranchAuthority authority = parts.manifest().capture(branch);
    AuthorityToken token = authority.token(parts.liveSchemaIdentity().get());
    CommitTemplate.requireExpectedHead(ifCommit, authority.head());
    ManifestState head = authority.state();
    List<Planned> planned = authority.head().equals(Optional.of(to)) ? List.of()
        : plan(branch, to, token, head, target(authority, to));
    if (planned.isEmpty()) {
      return new Result(branch, to, List.of(), Optional.empty(), head.manifestVersion());
    }
    List<String> tableGates = planned.stream().map(p -> GateManager.tableGate(p.pin.tableKey(), branch)).toList();
    try (GateManager.Held held = parts.gates().acquire(List.of(branch), tableGates)) {
      Set<TableRef> refs = planned.stream().map(p -> p.pin.ref())
          .collect(Collectors.toSet());
      parts.template().barrier(s -> s.concerns(branch, refs), "reverting");
      BranchAuthority verified = parts.manifest().recapture(authority);
      CommitTemplate.revalidate(verified, token, ifCommit, parts.liveSchemaIdentity().get());
      for (Planned p : planned) {
        Optional<UncoveredDrift> drift = parts.template().drift(p.pin.tableKey(), p.pin.at(), false);
        if (drift.isPresent()) {
          throw drift.get();
        }
      }
      return parts.template().commit(new Plan(branch, to, token, verified, planned, actor));
    }
  }

  /** The commit {@code to} in the branch's lineage (inherited commits included). */
  private GraphCommit target(BranchAuthority authority, String to) {
    GraphCommit[] found = {null};
    parts.manifest().lineage(authority, c -> {
      if (c.id().equals(to)) {
        found[0] = c;
      }
      return found[0] == null;
    });
    if (found[0] == null) {
      throw new RevertRefused(RevertRefused.Reason.NOT_IN_HISTORY, to, Optional.empty(),
          "it is not in the history of branch " + authority.branch());
    }
    return found[0];
  }

  /** Per table whose pin differs from the commit's: the version of the branch's own ref to restore. */
  private List<Planned> plan(String branch, String to, AuthorityToken token, ManifestState head, GraphCommit target) {
    if (!schemaAt.apply(target).equals(token.schemaIdentity())) {
      throw new RevertRefused(RevertRefused.Reason.SCHEMA_CHANGED, to, Optional.empty(),
          "the accepted schema changed since; a revert restores data, never a schema");
    }
    ManifestState at = parts.manifest().stateAt(target.branch(), target.manifestVersion());
    if (!at.registered().equals(head.registered()) || !at.tables().keySet().equals(head.tables().keySet())) {
      throw new RevertRefused(RevertRefused.Reason.SCHEMA_CHANGED, to, Optional.empty(),
          "its tables " + at.registered().keySet() + " are not the head's " + head.registered().keySet());
    }
    Optional<String> own = branch.equals(ManifestState.MAIN) ? Optional.empty() : Optional.of(branch);
    List<Planned> out = new ArrayList<>();
    for (TablePin now : head.tables().values()) {
      TablePin then = at.tables().get(now.tableKey());
      if (then.location().equals(now.location()) && then.nativeBranch().equals(now.nativeBranch())
          && then.version() == now.version()) {
        continue; // the same version: untouched
      }
      long restore = ownVersionOf(then, now, own, to);
      if (!parts.tables().versions().readable(TableAt.of(now.location(), own, restore))) {
        throw new RevertRefused(RevertRefused.Reason.VERSION_REMOVED, to, Optional.of(now.tableKey().toString()),
            "version " + restore + " of " + now.tableKey() + " was cleaned up");
      }
      out.add(new Planned(now, restore, then.rowCount(), UUID.randomUUID().toString()));
    }
    return out;
  }

  /**
   * The version of the branch's own ref that holds {@code then}'s content: {@code then} itself when
   * it is on that ref, or the ref's fork point when the branch forked the table from exactly
   * {@code then}. A table the branch still inherits is not restored (that would write its owner's ref).
   */
  private long ownVersionOf(TablePin then, TablePin now, Optional<String> own, String to) {
    if (now.nativeBranch().equals(own)) {
      if (then.nativeBranch().equals(own)) {
        return then.version();
      }
      boolean forkedThere = parts.tables().branches().list(now.location()).stream().anyMatch(b -> b.name().equals(own.get())
          && b.parent().equals(then.nativeBranch()) && b.parentVersion() == then.version());
      if (forkedThere) {
        return then.version();
      }
    }
    throw new RevertRefused(RevertRefused.Reason.UNSUPPORTED_TABLE, to, Optional.of(now.tableKey().toString()),
        now.tableKey() + " is pinned at " + then.nativeBranch().orElse("main") + "@" + then.version()
            + " there and at " + now.nativeBranch().orElse("main") + "@" + now.version() + " now; only a table"
            + " on the branch's own ref holding that version is restored");
  }

  /** The revert's plan: one pre-minted Restore per table, in table-key order. */
  private final class Plan implements CommitPlan<List<Restored>, Result> {
    private final String branch;
    private final String to;
    private final AuthorityToken token;
    private final BranchAuthority verified;
    private final List<Planned> planned;
    private final Optional<String> actor;
    private final RecoverySidecar sidecar;

    Plan(String branch, String to, AuthorityToken token, BranchAuthority verified, List<Planned> planned,
        Optional<String> actor) {
      this.branch = branch;
      this.to = to;
      this.token = token;
      this.verified = verified;
      this.planned = planned;
      this.actor = actor;
      Optional<String> head = token.graphHead();
      long createdAt = Micros.now();
      this.sidecar = new RecoverySidecar(new dev.omnigraph.recovery.WriterKind.Revert(), Ulid.next(),
          actor.orElse(null), new RecoverySidecar.Authority(branch, token.branchIdentity().orElse(null),
          head.orElse(null), token.schemaIdentity()), planned.stream().map(RevertAttempt::intent).toList(),
          RecoverySidecar.State.ARMED, new RecoverySidecar.Lineage(Ulid.next(), head.orElse(null), createdAt,
          Ulid.next()), createdAt);
    }

    @Override
    public Header header() {
      return new Header(Failpoint.WriterPhases.REVERT, "revert of " + branch + " to " + to, Optional.of(sidecar),
          Optional.of(verified));
    }

    @Override
    public List<Restored> effect(CommitTemplate.Armed armed) {
      List<Restored> done = new ArrayList<>();
      for (Planned p : planned) {
        boolean before = armed.effected();
        armed.effecting();
        CommitOutcome outcome = parts.tables().commit(parts.tables().versions().stageRestore(p.pin.at(), p.restore, p.uuid));
        if (outcome.kind() == CommitOutcome.Kind.NOT_LANDED && !before) {
          // The first restore lost to a concurrent writer and nothing of ours landed.
          throw new CommitTemplate.EffectFree(() -> new ReadSetChanged(new dev.omnigraph.api.ReadSetMember.Table(p.pin.tableKey().toString()),
              Optional.of(Long.toString(p.pin.version())), Optional.of(outcome.detail())));
        }
        if (outcome.kind() != CommitOutcome.Kind.LANDED) {
          throw new IllegalStateException("the restore of " + p.pin.tableKey() + " did not land exactly at version "
              + (p.pin.version() + 1) + " (" + outcome.kind() + ": " + outcome.detail() + ")");
        }
        done.add(new Restored(p.pin.tableKey(), p.pin.version(), p.restore, outcome.version(), p.rowCount));
        Failpoints.hit(Failpoint.REVERT_AFTER_TABLE_COMMIT);
      }
      return done;
    }

    @Override
    public ManifestBatchPublisher.Intent intent(Optional<RecoverySidecar> confirmed, List<Restored> done) {
      List<TableVersionUpdate> updates = new ArrayList<>();
      for (int i = 0; i < planned.size(); i++) {
        TablePin pin = planned.get(i).pin;
        updates.add(new TableVersionUpdate(pin.tableKey(), pin.identity(), pin.location(), done.get(i).toVersion(),
            pin.nativeBranch(), done.get(i).rowCount()));
      }
      return new ManifestBatchPublisher.Intent(branch, token.branchIdentity(), token.graphHead(), List.of(), updates,
          sidecar.lineage().commitId(), actor, Optional.empty(), sidecar.lineage().createdAtMicros());
    }

    @Override
    public Result result(List<Restored> done, Optional<ManifestBatchPublisher.Published> published) {
      ManifestBatchPublisher.Published p = published.orElseThrow();
      return new Result(branch, to, done, Optional.of(p.commit()), p.manifestVersion());
    }
  }

  /** The recovery record of one restore: a mutation's shape, landing at the pin + 1. */
  private static RecoverySidecar.TableIntent intent(Planned p) {
    TablePin pin = p.pin;
    return new RecoverySidecar.TableIntent(pin.tableKey(), pin.identity().stableTableId(),
        pin.identity().incarnationId(), pin.location(), pin.nativeBranch().orElse(null), pin.version(), pin.version(),
        p.uuid, pin.version() + 1, p.rowCount, false, null, null);
  }
}
