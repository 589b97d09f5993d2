package dev.omnigraph.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * Reference {@code QueriesCatalogOutput}: every stored query of a graph, sorted by name.
 *
 * @param queries the catalog entries
 */
public record QueriesCatalogOutput(@JsonProperty("queries") List<Entry> queries) {

  /**
   * Reference {@code QueryCatalogEntry}.
   *
   * @param name the registry key and invoke path segment ({@code POST /queries/{name}}), the declared query name
   * @param toolName the MCP tool id; the name (this server has no per-query override)
   * @param mutation true for an insert/update/delete body
   * @param description the declaration's {@code @description("…")}, or null
   * @param instruction the declaration's {@code @instruction("…")}, or null
   * @param params the declared parameters in declaration order
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Entry(
      @JsonProperty("name") String name,
      @JsonProperty("tool_name") String toolName,
      @JsonProperty("mutation") boolean mutation,
      @JsonProperty("description") String description,
      @JsonProperty("instruction") String instruction,
      @JsonProperty("params") List<Param> params) {}

  /**
   * Reference {@code ParamDescriptor}.
   *
   * @param name the parameter name without {@code $}
   * @param kind reference {@code ParamKind}: {@code string bool int bigint float date datetime blob vector list}
   * @param itemKind the element kind when {@code kind} is {@code list}, else null
   * @param vectorDim the dimension when {@code kind} is {@code vector}, else null
   * @param nullable true for {@code T?}: the caller may leave it out
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Param(
      @JsonProperty("name") String name,
      @JsonProperty("kind") String kind,
      @JsonProperty("item_kind") String itemKind,
      @JsonProperty("vector_dim") Integer vectorDim,
      @JsonProperty("nullable") boolean nullable) {}
}
