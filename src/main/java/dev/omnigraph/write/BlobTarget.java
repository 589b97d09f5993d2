package dev.omnigraph.write;

import dev.omnigraph.api.TableKey;
import dev.omnigraph.api.InvalidRequest;
import dev.omnigraph.api.NotFound;
import dev.omnigraph.manifest.TablePin;
import dev.omnigraph.schema.Catalog;
import dev.omnigraph.schema.Property;
import java.util.Optional;

/**
 * One Blob cell as {@code /graphs/{id}/blob} names it ({@code entity}, {@code type}, {@code id},
 * {@code property}; docs/http-api.md, "Blob reads" and "Blob writes"): resolved against a catalog
 * the same way for a read and a write, and the cell's strong entity tag.
 */
public record BlobTarget(String entity, String type, String id, String property) {

  /** The cell's table and its Blob property in one catalog. */
  public record Resolved(TableKey tableKey, Property property) {}

  /**
   * @throws InvalidRequest for an entity other than {@code node}/{@code edge}, an unknown type, or a
   *     property that is not a Blob
   */
  public Resolved resolve(Catalog catalog) {
    TableKey tableKey;
    Optional<Property> prop;
    if (entity.equals("node")) {
      var node = catalog.node(type).orElseThrow(() -> new InvalidRequest("unknown node type '" + type + "'"
          + catalog.nodeTypeHint(type)));
      tableKey = node.tableKey();
      prop = node.property(property);
    } else if (entity.equals("edge")) {
      var edge = catalog.edge(type).orElseThrow(() -> new InvalidRequest("unknown edge type '" + type + "'"
          + catalog.edgeTypeHint(type)));
      tableKey = edge.tableKey();
      prop = edge.property(property);
    } else {
      throw new InvalidRequest("entity must be node or edge, got '" + entity + "'");
    }
    if (prop.isEmpty() || !prop.get().type().isBlob()) {
      throw new InvalidRequest("'" + property + "' of " + type + " is not a Blob property");
    }
    return new Resolved(tableKey, prop.get());
  }

  /** No row with this id. */
  public NotFound missing() {
    return new NotFound(entity, id, "no " + type + " with id '" + id + "'");
  }

  /**
   * The strong entity tag of a cell version: the table's identity (drop and re-add never repeat
   * it), its exact version, and the row (the reference's BlobVersionTag has the same parts).
   */
  public static String entityTag(TablePin pin, long rowId) {
    return "\"" + pin.identity().stableTableId() + "." + pin.identity().incarnationId() + "." + pin.version() + "."
        + rowId + "\"";
  }
}
