package dev.omnigraph.engine;

import dev.omnigraph.api.RecoveryRequired;
import dev.omnigraph.manifest.GraphManifest;
import dev.omnigraph.recovery.RecoverySidecar;
import dev.omnigraph.recovery.SchemaContracts;
import dev.omnigraph.recovery.SidecarStore;
import dev.omnigraph.api.UnreadableSidecar;
import dev.omnigraph.schema.SchemaIr;
import dev.omnigraph.storage.StorageAdapter;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * {@link SchemaContracts} over the contract files ({@link SchemaContract}); an acceptance also
 * becomes what every handle of the process plans with ({@link SchemaHolder}).
 */
final class StoredSchemaContracts implements SchemaContracts {

  private final StorageAdapter storage;
  private final SchemaHolder holder;

  StoredSchemaContracts(StorageAdapter storage, SchemaHolder holder) {
    this.storage = storage;
    this.holder = holder;
  }

  @Override
  public String liveIdentity() {
    return SchemaContract.liveIdentity(storage);
  }

  @Override
  public void stage(String source, SchemaIr ir) {
    SchemaContract.stage(storage, source, ir);
  }

  @Override
  public boolean staged(String identity) {
    return SchemaContract.staged(storage, identity);
  }

  @Override
  public void unstage(String identity) {
    if (!SchemaContract.read(storage).history().stream().anyMatch(a -> a.identity().equals(identity))) {
      storage.delete(SchemaContract.historyIrKey(identity));
      storage.delete(SchemaContract.historySourceKey(identity));
    }
  }

  @Override
  public void accept(String identity, long manifestVersion) {
    holder.set(SchemaContract.promote(storage, identity, manifestVersion, Clock.micros()));
  }

  /**
   * Read-only open's check: it may serve the old manifest and schema beside
   * an unpublished schema apply, but not a published one whose schema is not accepted yet (the
   * tables would not match the catalog), nor a malformed sidecar beside a staged, unaccepted schema
   * (that sidecar may be the only proof of a committed but unaccepted apply).
   *
   * @throws RecoveryRequired in either case: open the graph read-write to complete it
   */
  static void refuseUnpromoted(StorageAdapter storage, SidecarStore sidecars, GraphManifest manifest,
      SchemaContract accepted) {
    Set<String> known = accepted.history().stream().map(SchemaContract.Accepted::identity).collect(Collectors.toSet());
    // Only a staged schema that is not accepted can belong to an interrupted apply: without one,
    // a read-only open does not even list the sidecars (the steady state costs one small LIST).
    boolean staging = storage.list(SchemaContract.HISTORY_PREFIX).stream()
        .map(k -> k.substring(k.lastIndexOf('/') + 1))
        .map(name -> name.endsWith(".ir.json") ? name.substring(0, name.length() - ".ir.json".length()) : null)
        .anyMatch(id -> id != null && !known.contains(id));
    if (!staging) {
      return;
    }
    for (String key : sidecars.list()) {
      Optional<RecoverySidecar> s;
      try {
        s = sidecars.read(key);
      } catch (UnreadableSidecar unreadable) {
        throw new RecoveryRequired(unreadable.operationId(), "an unreadable recovery sidecar (" + key
            + ") lies beside a staged schema that is not accepted; it may be a schema apply that published:"
            + " inspect it, then open the graph read-write");
      }
      if (s.isEmpty() || !(s.get().kind() instanceof dev.omnigraph.recovery.WriterKind.SchemaApply payload)) {
        continue;
      }
      RecoverySidecar apply = s.get();
      if (!payload.payload().targetIdentity().equals(accepted.identity())
          && manifest.findCommit(apply.lineage().commitId()).isPresent()) {
        throw new RecoveryRequired(apply.operationId(), "a schema apply published its commit "
            + apply.lineage().commitId() + " but its schema is not accepted yet; open the graph read-write to"
            + " complete it");
      }
    }
  }
}
