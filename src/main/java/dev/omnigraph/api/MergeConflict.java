package dev.omnigraph.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Objects;

/**
 * Reference {@code MergeConflictOutput}: one reason a merge cannot land.
 *
 * @param kind what went wrong
 * @param entityKind {@code node} or {@code edge}
 * @param typeName the node or edge type
 * @param entityId the entity concerned (null when the conflict is not about one entity)
 * @param message what happened, in words
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record MergeConflict(
    @JsonProperty("kind") Kind kind,
    @JsonProperty("entity_kind") String entityKind,
    @JsonProperty("type_name") String typeName,
    @JsonProperty("entity_id") String entityId,
    @JsonProperty("message") String message) {

  public MergeConflict {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(entityKind, "entity_kind");
    Objects.requireNonNull(typeName, "type_name");
    Objects.requireNonNull(message, "message");
  }

  /** A conflict on table {@code tableKey} ({@code node:Type} / {@code edge:Type}). */
  public static MergeConflict of(Kind kind, String tableKey, String entityId, String message) {
    int colon = tableKey.indexOf(':');
    return new MergeConflict(kind, tableKey.substring(0, colon), tableKey.substring(colon + 1), entityId, message);
  }

  /** Reference {@code MergeConflictKindOutput}. */
  public enum Kind {
    /** The same id was inserted on both branches with different content. */
    DIVERGENT_INSERT("divergent_insert"),
    /** The same entity was updated differently on both branches. */
    DIVERGENT_UPDATE("divergent_update"),
    /** One side deleted an entity the other side updated. */
    DELETE_VS_UPDATE("delete_vs_update"),
    /** An edge of the merged result names a node the merged result does not hold. */
    ORPHAN_EDGE("orphan_edge"),
    /** The merged result would break a {@code @unique} constraint. */
    UNIQUE_VIOLATION("unique_violation"),
    /** The merged result would break an edge's {@code @card} bounds. */
    CARDINALITY_VIOLATION("cardinality_violation"),
    /** The merged result would break a value constraint ({@code @range}, {@code @check}). */
    VALUE_CONSTRAINT_VIOLATION("value_constraint_violation");

    private final String wire;

    Kind(String wire) {
      this.wire = wire;
    }

    @JsonValue
    public String wire() {
      return wire;
    }
  }
}
