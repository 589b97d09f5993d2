package dev.omnigraph.write;

import dev.omnigraph.api.CommitId;
import dev.omnigraph.api.TableKey;
import dev.omnigraph.api.UncoveredDrift;
import dev.omnigraph.api.PreconditionFailed;
import dev.omnigraph.api.ReadSetChanged;
import dev.omnigraph.api.ReadSetMember;
import dev.omnigraph.api.RecoveryRequired;
import dev.omnigraph.manifest.AuthorityToken;
import dev.omnigraph.manifest.BranchAuthority;
import dev.omnigraph.manifest.ManifestBatchPublisher;
import dev.omnigraph.recovery.RecoverySidecar;
import dev.omnigraph.recovery.SidecarStore;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.table.TableAt;
import dev.omnigraph.util.Background;
import dev.omnigraph.util.BoundedRetry;
import dev.omnigraph.util.Failpoint;
import dev.omnigraph.util.Failpoints;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntFunction;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * The direct-publish commit, written once for every writer (docs/write-path.md, "The commit
 * template"): the recovery barrier under the gates, the token's revalidation, the arm of the
 * sidecar, the writer's effects, the confirm, the exact-head publish, the retire off the
 * acknowledgement path, and the bounded reprepare around it all. Writers only plan
 * ({@link CommitPlan}).
 *
 * <p>What a failure means is decided here, by its type and the phase it ended, in one place
 * ({@link #failed}); the rule is Iceberg's: never clean up when the outcome is unknown, clean up
 * when the attempt provably had no effect, retry only effect-free authority movement.
 * <ul>
 *   <li>before the arm is durable: the failure as it is, nothing to clean up;
 *   <li>armed, provably no effect ({@link EffectFree}, or a failure before
 *       {@link Armed#effecting()} of a writer that {@link CommitPlan#finalizesEffectFree()}): the
 *       sidecar is deleted and the typed outcome returned;
 *   <li>armed, any other failure up to the publish: {@link RecoveryRequired}, the sidecar kept;
 *   <li>published: done; a failure of the retire is only logged (recovery retires the sidecar).
 * </ul>
 * Only this class arms, confirms, retires or deletes a writer's sidecar and calls the publisher
 * (an ArchUnit rule holds that).
 */
public final class CommitTemplate {

  private static final Logger LOG = Logger.getLogger(CommitTemplate.class);

  /**
   * Effect-free authority movement is reprepared at once (the gates already order writers of this
   * process), at most {@link WriteLimits#MAX_REPREPARES} times after the first attempt.
   */
  static final BoundedRetry.Policy REPREPARE = new BoundedRetry.Policy("write reprepare",
      WriteLimits.MAX_REPREPARES + 1, Duration.ZERO, Duration.ZERO, Duration.ZERO);

  private final SidecarStore sidecars;
  private final ManifestBatchPublisher publisher;
  private final DataTables tables;

  public CommitTemplate(SidecarStore sidecars, ManifestBatchPublisher publisher, DataTables tables) {
    this.sidecars = Objects.requireNonNull(sidecars);
    this.publisher = Objects.requireNonNull(publisher);
    this.tables = Objects.requireNonNull(tables);
  }

  /**
   * A failure a plan proved left no effect: the template deletes the armed sidecar, then throws
   * what {@code outcome} supplies (asked only after the delete, as a finalized attempt).
   */
  public static final class EffectFree extends RuntimeException {
    private final transient Supplier<RuntimeException> outcome;

    public EffectFree(Supplier<RuntimeException> outcome) {
      super("effect-free", null, false, false);
      this.outcome = outcome;
    }
  }

  /** The arm's own failure met by a waiting effect: the attempt aborts with the cause, no effect made. */
  private static final class ArmFailed extends RuntimeException {
    private final RuntimeException cause;

    ArmFailed(RuntimeException cause) {
      super(cause.getMessage(), cause, false, false);
      this.cause = cause;
    }
  }

  /**
   * The armed attempt as its effects see it: the point every effect waits at (the sidecar durable,
   * then the writer's after-arm failpoint once), and whether an effect may have landed yet.
   */
  public static final class Armed {
    private final Optional<String> operationId;
    private final CompletableFuture<Void> arming;
    private final Failpoint afterArm;
    private boolean passed;
    private volatile boolean effecting;

    private Armed(Optional<String> operationId, CompletableFuture<Void> arming, Failpoint afterArm) {
      this.operationId = operationId;
      this.arming = arming;
      this.afterArm = afterArm;
    }

    /** The sidecar's operation id; empty when the plan armed nothing. */
    public Optional<String> operationId() {
      return operationId;
    }

    /** Waits for the sidecar to be durable; every effect calls it first. */
    public void await() {
      if (passed) {
        return;
      }
      if (arming != null) {
        try {
          Background.join(arming);
        } catch (RuntimeException e) {
          throw new ArmFailed(e);
        }
      }
      passed = true;
      Failpoints.hit(afterArm);
    }

    /** From here an effect may have landed: a failure is no longer provably effect-free. */
    public void effecting() {
      effecting = true;
    }

    /** Whether {@link #effecting()} was called. */
    public boolean effected() {
      return effecting;
    }

    /** Whether the sidecar is durable, waiting for an arm still in flight. */
    private boolean durable() {
      if (operationId.isEmpty()) {
        return false;
      }
      if (arming == null) {
        return true;
      }
      try {
        arming.join();
        return true;
      } catch (RuntimeException e) {
        return false;
      }
    }
  }

  /**
   * Any unresolved sidecar that {@code concerns} this write blocks it: the re-list under the gates
   * (docs/write-path.md, "The commit template"), closing the window since the entry barrier. Only a
   * sidecar's identity parts are read, which never change.
   *
   * @param before what is refused, for the message ({@code "writing"}, {@code "merging"})
   * @throws RecoveryRequired naming the first such sidecar
   */
  public void barrier(Predicate<RecoverySidecar> concerns, String before) {
    for (String key : sidecars.list()) {
      Optional<RecoverySidecar> s = sidecars.readIdentity(key);
      if (s.isPresent() && concerns.test(s.get())) {
        RecoverySidecar pending = s.get();
        throw new RecoveryRequired(pending.operationId(), "a pending recovery sidecar (" + pending.writerKind()
            + " on " + pending.authority().branch() + ") must be resolved before " + before
            + "; reopen the graph read-write");
      }
    }
  }

  /**
   * The token's revalidation against the manifest read under the gates: the same native branch
   * incarnation, the same graph head, the same accepted schema. A difference is a {@link ReadSetChanged#replannable replannable} {@link ReadSetChanged}.
   *
   * @param ifCommit a conditional write's expected head: a head that is not it is
   *     {@link PreconditionFailed}, checked before the head's own comparison
   */
  static void revalidate(BranchAuthority now, AuthorityToken token, Optional<CommitId> ifCommit, String liveSchema) {
    Optional<String> identity = now.nativeIdentity();
    if (!identity.equals(token.branchIdentity())) {
      throw ReadSetChanged.replannable(new ReadSetMember.BranchIdentity(token.branch()), token.branchIdentity(), identity);
    }
    Optional<String> head = now.head();
    requireExpectedHead(ifCommit, head);
    if (!head.equals(token.graphHead())) {
      throw ReadSetChanged.replannable(new ReadSetMember.GraphHead(token.branch()), token.graphHead(), head);
    }
    if (!liveSchema.equals(token.schemaIdentity())) {
      throw ReadSetChanged.replannable(new ReadSetMember.Schema(), Optional.of(token.schemaIdentity()), Optional.of(liveSchema));
    }
  }

  /**
   * A conditional write's precondition (docs/write-path.md, "One template, many writers", step 3): the branch head
   * must be exactly {@code ifCommit}; checked at capture and again under the gates.
   *
   * @throws PreconditionFailed when it is not (nothing written)
   */
  static void requireExpectedHead(Optional<CommitId> ifCommit, Optional<String> head) {
    if (ifCommit.isPresent() && !head.equals(Optional.of(ifCommit.get().value()))) {
      throw new PreconditionFailed(ifCommit.get().value(), head);
    }
  }

  /**
   * Live HEAD == pin on a table that receives an effect, or, for a ref this write creates, its
   * absence: anything else is drift no sidecar covers.
   *
   * @param pinned the dataset branch the effect lands on (the pin's own one unless {@code firstTouch})
   *     at the version the manifest pins
   */
  Optional<UncoveredDrift> drift(TableKey tableKey, TableAt pinned, boolean firstTouch) {
    if (firstTouch) {
      String ref = pinned.nativeBranch().orElseThrow();
      if (tables.branches().exists(pinned.ref())) {
        return Optional.of(new UncoveredDrift(tableKey.toString(), "native branch " + ref
            + " exists but the manifest does not reference it"));
      }
      return Optional.empty();
    }
    long live = tables.head(pinned);
    if (live != pinned.version()) {
      return Optional.of(new UncoveredDrift(tableKey.toString(), "live HEAD is version " + live + " but the manifest pins "
          + pinned.version()));
    }
    return Optional.empty();
  }

  /**
   * Runs {@code attempt} (numbered from 0) until it returns, repreparing at most
   * {@link WriteLimits#MAX_REPREPARES} times after a {@link ReadSetChanged#replannable() replannable}
   * {@link ReadSetChanged} that {@code retryable} accepts; any other, or the last, is the answer.
   */
  static <R> R reprepared(String what, Predicate<ReadSetChanged> retryable, IntFunction<R> attempt) {
    ReadSetChanged[] last = {null};
    return BoundedRetry.run(REPREPARE, BoundedRetry.REAL, n -> {
      try {
        return Optional.of(attempt.apply(n));
      } catch (ReadSetChanged moved) {
        if (!moved.replannable() || !retryable.test(moved)) {
          throw moved.asFinal();
        }
        last[0] = moved;
        LOG.debugf("%s: %s; repreparing (attempt %d)", what, moved.getMessage(), n + 1);
        return Optional.empty();
      }
    }, () -> last[0].asFinal());
  }

  /** {@code armed} with the identity of every first-touch ref it created bound, for recovery to verify. */
  private RecoverySidecar withRefIdentities(RecoverySidecar armed) {
    return armed.withTables(armed.tables().stream().map(t -> t.firstTouch()
        ? t.withRefIdentity(tables.branches().identity(t.ref()).orElseThrow(
            () -> new IllegalStateException("first-touch ref " + t.nativeBranch() + " of " + t.tableKey()
                + " vanished after its effect")))
        : t).toList());
  }

  /**
   * Arm, effect, confirm, publish, retire (docs/write-path.md, "The commit template"), for one
   * planned attempt (see the class comment for what each failure becomes).
   */
  public <E, R> R commit(CommitPlan<E, R> plan) {
    CommitPlan.Header header = plan.header();
    Failpoint.WriterPhases fp = header.failpoints();
    Optional<RecoverySidecar> sidecar = header.sidecar();
    CompletableFuture<Void> arming = null;
    if (sidecar.isPresent()) {
      RecoverySidecar toArm = sidecar.get();
      if (plan.armsInBackground()) {
        arming = Background.run(() -> sidecars.arm(toArm));
      } else {
        sidecars.arm(toArm); // a failed arm aborts with no effect: nothing below has happened yet
      }
    }
    Armed armed = new Armed(sidecar.map(RecoverySidecar::operationId), arming, fp.afterArm());
    E effects;
    Optional<RecoverySidecar> confirmed = sidecar;
    try {
      if (!plan.armsInBackground()) {
        armed.await();
      }
      effects = plan.effect(armed);
      armed.await();
      Failpoints.hit(fp.afterCommits());
      if (!plan.publishes(effects)) {
        sidecar.ifPresent(s -> sidecars.deleteQuietly(s.operationId()));
        return plan.result(effects, Optional.empty());
      }
      armed.effecting();
      if (sidecar.isPresent()) {
        confirmed = Optional.of(plan.confirmed(withRefIdentities(sidecar.get()), effects)
            .withState(RecoverySidecar.State.EFFECTS_CONFIRMED));
        sidecars.update(confirmed.get());
      }
      Failpoints.hit(fp.afterConfirm());
    } catch (RuntimeException failure) {
      throw failed(plan, header, armed, failure);
    }
    ManifestBatchPublisher.Published published;
    try {
      Failpoints.hit(fp.beforePublish());
      ManifestBatchPublisher.Intent intent = plan.intent(confirmed, effects);
      Optional<BranchAuthority> verified = header.verified();
      published = verified.isPresent() ? publisher.publish(intent, verified.get()) : publisher.publish(intent);
    } catch (RuntimeException failure) {
      if (armed.operationId().isEmpty()) {
        // Nothing armed: the publish was the only effect and it did not happen.
        throw failure; // a moved head is the publisher's ReadSetChanged, answered as it is
      }
      throw new RecoveryRequired(armed.operationId().get(), header.what() + " failed after its effects landed;"
          + " recovery completes it", failure);
    }
    try {
      Failpoints.hit(fp.afterPublish());
      plan.completePublished(published);
    } catch (RuntimeException failure) {
      if (plan.completesAfterPublish() && armed.operationId().isPresent()) {
        throw new RecoveryRequired(armed.operationId().get(), header.what() + " failed after its publish;"
            + " recovery completes it", failure);
      }
      // Durable: reported as done; the kept sidecar is retired by the next barrier or open.
      LOG.warnf(failure, "sidecar %s kept after %s published; recovery will retire it",
          armed.operationId().orElse("(none)"), header.what());
      return plan.result(effects, Optional.of(published));
    }
    // Phase D leaves the acknowledgement path: the commit is durable now.
    armed.operationId().ifPresent(sidecars::retire);
    return plan.result(effects, Optional.of(published));
  }

  /**
   * What a failure between the arm and the publish means, in one place: see the class comment.
   */
  private RuntimeException failed(CommitPlan<?, ?> plan, CommitPlan.Header header, Armed armed,
      RuntimeException failure) {
    if (failure instanceof ArmFailed arm) {
      return arm.cause; // every effect waits for the arm, so none was made
    }
    if (!armed.durable()) {
      return failure; // nothing armed (or the arm failed): no effect could follow
    }
    String op = armed.operationId().orElseThrow();
    if (failure instanceof EffectFree free) {
      sidecars.deleteQuietly(op); // finalize as if it never armed
      return free.outcome.get();
    }
    if (failure instanceof RecoveryRequired precise) {
      return precise;
    }
    if (plan.finalizesEffectFree() && !armed.effected() && plan.untouched()) {
      sidecars.deleteQuietly(op); // armed, nothing happened: the attempt leaves no trace
      return failure;
    }
    return new RecoveryRequired(op, header.what() + " failed after its sidecar was armed; recovery settles it", failure);
  }
}
