package dev.omnigraph.api;

import com.fasterxml.jackson.annotation.JsonProperty;

/** Reference {@code SchemaOutput}: the accepted {@code .pg} source. */
public record SchemaOutput(@JsonProperty("schema_source") String schemaSource) {}
