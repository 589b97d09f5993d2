package dev.omnigraph.engine;

import dev.omnigraph.api.TableKey;
import dev.omnigraph.api.BlobRead;
import dev.omnigraph.api.InvalidRequest;
import dev.omnigraph.api.NotFound;
import dev.omnigraph.manifest.BranchAuthority;
import dev.omnigraph.api.GraphCommit;
import dev.omnigraph.manifest.GraphManifest;
import dev.omnigraph.manifest.ManifestState;
import dev.omnigraph.manifest.TablePin;
import dev.omnigraph.api.policy.PolicyAction;
import dev.omnigraph.engine.policy.PolicyGate;
import dev.omnigraph.schema.Catalog;
import dev.omnigraph.storage.StorageAdapter;
import dev.omnigraph.table.BlobReads;
import dev.omnigraph.table.DataTables;
import java.io.OutputStream;
import java.util.Optional;

/**
 * Resolves one Blob cell ({@code entity}, {@code type}, {@code id}, {@code property}) at the head of
 * a branch or at a commit, with the same target resolution and {@code read} check as a query (the
 * facade asks for a branch's; this class for a snapshot's, once its branch is known)
 * (docs/http-api.md, "Blob reads").
 */
final class BlobCells {

  private BlobCells() {}

  static BlobRead open(PolicyGate gate, Optional<String> actor, GraphManifest manifest, StorageAdapter storage,
      SchemaContract contract, DataTables tables, String entity, String type, String id, String property,
      Optional<dev.omnigraph.api.BranchName> branch, Optional<dev.omnigraph.api.CommitId> snapshot) {
    if (branch.isPresent() && snapshot.isPresent()) {
      throw new InvalidRequest("give a branch or a snapshot, not both");
    }
    ManifestState state;
    Catalog catalog;
    String readBranch;
    String snapshotId;
    if (snapshot.isPresent()) {
      String at = snapshot.get().value();
      GraphCommit c = manifest.findCommit(at).orElseThrow(() -> new NotFound("snapshot", at));
      readBranch = c.branch();
      gate.check(actor, PolicyAction.READ, Optional.of(readBranch), Optional.empty());
      state = manifest.stateAt(c.branch(), c.manifestVersion());
      // The commit's table versions have the columns of the schema accepted then.
      catalog = contract.irAt(storage, c.manifestVersion()).catalog();
      snapshotId = c.id();
    } else {
      readBranch = branch.orElse(dev.omnigraph.api.BranchName.MAIN).value(); // the facade asked the gate for it
      BranchAuthority authority = manifest.capture(readBranch);
      state = authority.state();
      catalog = contract.ir().catalog();
      snapshotId = authority.head().orElse("");
    }
    dev.omnigraph.write.BlobTarget target = new dev.omnigraph.write.BlobTarget(entity, type, id, property);
    TableKey tableKey = target.resolve(catalog).tableKey();
    gate.checkTypes(actor, PolicyAction.READ, Optional.of(readBranch), java.util.Set.of(type));
    TablePin pin = state.tables().get(tableKey);
    if (pin == null) {
      throw target.missing();
    }
    BlobReads.Cell cell = tables.blobs().open(pin.at(), id, property)
        .orElseThrow(target::missing);
    if (cell.externalUri().isPresent()) {
      // An external cell is answered by its URI alone: no validator (a stored URI proves nothing
      // about the source's current bytes), no size, and no read of the source.
      String uri = cell.externalUri().get();
      cell.close();
      return new External(snapshotId, uri);
    }
    if (cell.size().isEmpty()) {
      cell.close();
      throw new NotFound("blob", property, "the Blob '" + property + "' of " + type + " '" + id + "' is null");
    }
    String etag = dev.omnigraph.write.BlobTarget.entityTag(pin, cell.rowId());
    return new Managed(snapshotId, etag, cell);
  }

  /**
   * The entity tag of the cell a write just published: its table's pin at {@code manifestVersion}
   * of {@code branch} and the row's id there (a replaced row gets a new row id).
   *
   * @return empty when the cell is null there
   */
  static Optional<String> writtenTag(GraphManifest manifest, Catalog catalog, DataTables tables, String branch,
      long manifestVersion, dev.omnigraph.write.BlobTarget target) {
    TablePin pin = manifest.stateAt(branch, manifestVersion).tables().get(target.resolve(catalog).tableKey());
    try (BlobReads.Cell cell = tables.blobs().open(pin.at(), target.id(),
        target.property()).orElseThrow(target::missing)) {
      return cell.size().isPresent() ? Optional.of(dev.omnigraph.write.BlobTarget.entityTag(pin, cell.rowId()))
          : Optional.empty();
    }
  }

  private record External(String snapshotId, String uri) implements BlobRead {
    @Override
    public java.util.Optional<String> externalUri() {
      return java.util.Optional.of(uri);
    }

    @Override
    public long size() {
      throw new IllegalStateException("an external Blob has no stored size; redirect to " + uri);
    }

    @Override
    public String etag() {
      throw new IllegalStateException("an external Blob has no entity tag");
    }

    @Override
    public void copyTo(long offset, long length, OutputStream out) {
      throw new IllegalStateException("an external Blob is not read through the graph; redirect to " + uri);
    }

    @Override
    public void close() {
      // nothing held: the table version was released when the URI was read
    }
  }

  private record Managed(String snapshotId, String etag, BlobReads.Cell cell) implements BlobRead {
    @Override
    public long size() {
      return cell.size().orElseThrow();
    }

    @Override
    public void copyTo(long offset, long length, OutputStream out) {
      cell.copyTo(offset, length, out);
    }

    @Override
    public void close() {
      cell.close();
    }
  }
}

