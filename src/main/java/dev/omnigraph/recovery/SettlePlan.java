package dev.omnigraph.recovery;

import dev.omnigraph.api.TableKey;
import dev.omnigraph.manifest.BranchAuthority;
import dev.omnigraph.manifest.ManifestBatchPublisher;
import dev.omnigraph.manifest.ManifestState;
import dev.omnigraph.api.recovery.TableClass;
import dev.omnigraph.api.recovery.TableOutcome;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * What one writer kind's recovery supplies to {@link SettleTemplate} (docs/recovery.md, "The settle
 * template"): how to tell whether each recorded effect landed, when the record may roll forward and
 * what that publishes, and what rolling back restores. The template owns everything else: the
 * order of the checks, the decision, its effects, the audit row and the sidecar's retirement.
 * A plan only reads; it never publishes, restores or writes a sidecar.
 */
interface SettlePlan {

  /**
   * The branch authority recovery settles against: the live head and pins, and the native branch's
   * identity (empty on main).
   */
  record Live(BranchAuthority authority, Optional<String> identity) {
    ManifestState state() {
      return authority.state();
    }

    Optional<String> head() {
      return authority.head();
    }
  }

  /**
   * A table's class, and the audit row it gets when the sidecar rolls forward (the version it
   * publishes, or why it is left out).
   */
  record Classified(TableClass tableClass, TableOutcome forward) {
    /** The row of an effect that rolls forward to its post-commit version. */
    static Classified published(RecoverySidecar.TableIntent t, TableClass c) {
      return new Classified(c, new TableOutcome(t.tableKey().toString(), c, "published", t.expectedVersion(),
          t.postCommitVersion()));
    }
  }

  /** What rolling forward publishes (empty: nothing left to publish) and the audit rows it records. */
  record Forward(Optional<ManifestBatchPublisher.Intent> publish, List<TableOutcome> tables) {}

  /**
   * Why the record cannot be trusted at all (a payload that disagrees with its envelope): recovery
   * refuses it before reading any evidence. Default: nothing.
   */
  default Optional<String> malformed(RecoverySidecar s) {
    return Optional.empty();
  }

  /** False for a writer that only ever rolls forward (optimize: there is never a rollback). */
  default boolean rollsBack() {
    return true;
  }

  /** Classifies {@code t} from live evidence; {@code state} is null for an orphaned branch. */
  Classified classify(RecoverySidecar s, RecoverySidecar.TableIntent t, ManifestState state);

  /**
   * Whether a foreign class on {@code t} leaves it alone (a first-touch ref or a new dataset that
   * only the sidecar claimed: never adopted, never restored through) instead of refusing the whole
   * sidecar (a table the manifest references).
   */
  default boolean outsideManifest(RecoverySidecar s, RecoverySidecar.TableIntent t) {
    return t.firstTouch();
  }

  /** What a refusal says about a foreign table, e.g. "a table it owns moved by a foreign commit". */
  String foreignEffect(RecoverySidecar s, RecoverySidecar.TableIntent foreign);

  /** Whether the record rolls forward, given its classes (none foreign, none behind its pin). */
  boolean rollsForward(RecoverySidecar s, Map<TableKey, Classified> classes, Live live);

  /** What rolling forward publishes and records. */
  Forward forward(RecoverySidecar s, Map<TableKey, Classified> classes, Live live);

  /**
   * The classes of a table the manifest references that rollback restores to its pin
   * ({@code COMPENSATED}, already restored, is republished as it is); any other class is left.
   */
  default Set<TableClass> restores() {
    return EnumSet.of(TableClass.ROLLED_PAST_EXPECTED, TableClass.PARTIAL_CHAIN, TableClass.DUPLICATED);
  }

  /**
   * Where a table of the manifest is republished once restored, or why it cannot be restored (its
   * pin moved since the sidecar captured it: restoring would discard a published winner).
   */
  Restorable restorable(RecoverySidecar s, RecoverySidecar.TableIntent t, TableClass c, Live live);

  /** See {@link #restorable}. */
  sealed interface Restorable {
    record To(Settlement.Step.Pin pin) implements Restorable {}

    record Refused(String message) implements Restorable {}
  }

  /**
   * Rolling back a table outside the manifest that is not a first-touch ref (a schema apply's new
   * dataset); empty: the template's first-touch rule applies.
   */
  default Optional<Settlement.Step> undoOutsideManifest(RecoverySidecar s, RecoverySidecar.TableIntent t,
      TableClass c, Live live) {
    return Optional.empty();
  }

  /**
   * Work that belongs to the commit once it is visible (a schema apply accepts its schema and runs
   * its hard drops); {@code publishedAt} is empty when it was visible before recovery ran.
   */
  default void completed(RecoverySidecar s, OptionalLong publishedAt) {}

  /** What a discard or rollback drops besides tables (a schema apply's staged schema). */
  default void abandoned(RecoverySidecar s) {}
}
