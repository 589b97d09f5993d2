package dev.omnigraph.write;

import dev.omnigraph.manifest.BranchAuthority;
import dev.omnigraph.manifest.ManifestBatchPublisher;
import dev.omnigraph.recovery.RecoverySidecar;
import dev.omnigraph.util.Failpoint;
import java.util.Optional;

/**
 * What one writer hands {@link CommitTemplate#commit} once it has planned (docs/write-path.md,
 * "The commit template"): its recovery record, its effects, what it publishes and what it answers.
 * The template owns the order of the phases and what every failure means; a plan only does the
 * writer's own work and says what that work proved.
 *
 * @param <E> what the effects produced (versions reached, tables built)
 * @param <R> what the writer answers its caller
 */
public interface CommitPlan<E, R> {

  /**
   * Who commits and from what: asked once, before the arm.
   *
   * @param failpoints the writer's failpoints the template hits at its phase boundaries (after the
   *     arm, after the table commits, after the confirm, before and after the publish)
   * @param what what failure messages name, e.g. {@code "index ensure on main"}
   * @param sidecar the recovery record to arm before the first effect; empty when the plan has no
   *     physical effect at all (a merge of pointers only), whose publish is then its only effect
   * @param verified the revalidated authority the publish commits from; empty: the publisher reads it
   */
  record Header(Failpoint.WriterPhases failpoints, String what, Optional<RecoverySidecar> sidecar,
      Optional<BranchAuthority> verified) {}

  /** See {@link Header}. */
  Header header();

  /**
   * True when the arm's durable write may overlap effect-free preparation (a merge stages its first
   * chunk meanwhile); every effect still waits at {@link CommitTemplate.Armed#await()}.
   */
  default boolean armsInBackground() {
    return false;
  }

  /**
   * Whether an armed attempt that provably made no effect is finalized as if it never armed (its
   * sidecar deleted, the failure returned as it is). Mutation, load, index ensure and optimize:
   * yes. Branch merge and schema apply: no, any failure once armed is {@code RecoveryRequired}.
   */
  default boolean finalizesEffectFree() {
    return true;
  }

  /**
   * Runs every effect after {@code armed} is durable. Calls {@link CommitTemplate.Armed#effecting()}
   * before anything that may land; throws {@link CommitTemplate.EffectFree} for a failure it proved
   * left no effect, {@code RecoveryRequired} for one it can name precisely, anything else for the
   * template to classify.
   */
  E effect(CommitTemplate.Armed armed);

  /**
   * Asked for a failure before {@link CommitTemplate.Armed#effecting()}: whether storage shows no
   * effect either (optimize re-reads its HEADs, since Lance mints its compaction). Default: yes.
   */
  default boolean untouched() {
    return true;
  }

  /**
   * Whether the effects changed anything to publish; when not, the attempt is finalized as
   * effect-free and {@link #result} gets no publish (an optimize whose compactions all found nothing).
   */
  default boolean publishes(E effects) {
    return true;
  }

  /**
   * The armed record with the effects' confirmed facts bound; the template has bound every
   * first-touch ref's identity already and sets the state.
   */
  default RecoverySidecar confirmed(RecoverySidecar armed, E effects) {
    return armed;
  }

  /** The one publish, built from the confirmed record. */
  ManifestBatchPublisher.Intent intent(Optional<RecoverySidecar> confirmed, E effects);

  /**
   * Whether the commit is whole only after {@link #completePublished} ran (a schema apply accepts
   * the schema and runs its hard drops): a failure up to then is {@code RecoveryRequired}.
   */
  default boolean completesAfterPublish() {
    return false;
  }

  /** Work that belongs to the commit after its publish; see {@link #completesAfterPublish()}. */
  default void completePublished(ManifestBatchPublisher.Published published) {}

  /** The answer; {@code published} is empty when {@link #publishes} said nothing moved. */
  R result(E effects, Optional<ManifestBatchPublisher.Published> published);
}
