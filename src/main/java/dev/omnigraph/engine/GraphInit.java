package dev.omnigraph.engine;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omnigraph.api.Conflict;
import dev.omnigraph.manifest.ManifestBatchPublisher;
import dev.omnigraph.manifest.ManifestBootstrap;
import dev.omnigraph.manifest.TableIdentity;
import dev.omnigraph.manifest.TableVersionUpdate;
import dev.omnigraph.schema.SchemaIr;
import dev.omnigraph.storage.StorageAdapter;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.api.storage.StorageException;
import dev.omnigraph.table.TableSchemas;
import dev.omnigraph.table.TableStore;
import dev.omnigraph.util.Ulid;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Creates a graph: claim the root, create {@code __manifest} and one empty dataset per type (with
 * its key indexes, so the genesis pins name indexed versions), accept
 * the schema, publish the genesis commit, release the claim. The claim is only released after the
 * genesis publish, so an interrupted init leaves it behind and every later init and open refuses
 * the root loudly instead of serving half a graph.
 */
final class GraphInit {

  static final String CLAIM_KEY = "__init_claim.json";

  private GraphInit() {}

  static void run(StorageConfig config, StorageAdapter storage, String schemaSource, Optional<String> actor,
      dev.omnigraph.manifest.ManifestStates states) {
    SchemaContract schema = SchemaContract.fresh(schemaSource);
    if (storage.exists(ManifestBootstrap.MANIFEST_KEY)) {
      throw new Conflict("a graph already exists at " + config.rootUri() + " (it has __manifest)");
    }
    String operation = Ulid.next();
    long now = Clock.micros();
    String claim = new ObjectMapper().createObjectNode()
        .put("operation_id", operation)
        .put("actor", actor.orElse(null))
        .put("started_at", now)
        .toPrettyString();
    try {
      storage.putTextIfAbsent(CLAIM_KEY, claim);
    } catch (StorageException e) {
      if (e.kind() == StorageException.Kind.PRECONDITION) {
        throw new Conflict("graph root " + config.rootUri() + " holds an init claim (" + CLAIM_KEY
            + "): another init is running or one was interrupted; inspect the root and remove the "
            + "claim only if no init is running");
      }
      throw e;
    }
    ManifestBootstrap.create(config);
    TableStore tables = new TableStore(config);
    List<ManifestBatchPublisher.TableRegistration> registrations = new ArrayList<>();
    List<TableVersionUpdate> pins = new ArrayList<>();
    for (SchemaIr.TableEntry entry : schema.ir().tables()) {
      TableIdentity identity = new TableIdentity(entry.stableTableId(), entry.incarnationId());
      String location = entry.datasetPath();
      Schema arrow = entry.isNode()
          ? TableSchemas.node(schema.ir().catalog().node(entry.typeName()).orElseThrow())
          : TableSchemas.edge(schema.ir().catalog().edge(entry.typeName()).orElseThrow());
      // The key indexes are built here, on the empty table, so the genesis pin already names a
      // version that has them (docs/write-path.md, "what a write costs": key probes that do not read every fragment).
      long version = tables.createWithKeyIndexes(location, arrow);
      registrations.add(new ManifestBatchPublisher.TableRegistration(entry.tableKey(), identity, location));
      pins.add(new TableVersionUpdate(entry.tableKey(), identity, location, version, Optional.empty(), 0));
    }
    schema.write(storage, now);
    new ManifestBatchPublisher(config, storage, dev.omnigraph.lease.WriterFence.NONE, states).publish(new ManifestBatchPublisher.Intent(
        BranchNames.MAIN, Optional.empty(), Optional.empty(), registrations, pins, Ulid.next(), actor,
        Optional.empty(), now));
    storage.delete(CLAIM_KEY);
  }
}
