package dev.omnigraph.schema;

import dev.omnigraph.api.TableKey;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The accepted schema: a {@link Catalog} plus the physical identity of every table, in one canonical
 * JSON document ({@code _schema.ir.json}) whose SHA-256 is the accepted-schema identity that every
 * writer's authority token carries.
 *
 * <p>Each node and edge type owns a <em>stable table id</em>, assigned when the type is first
 * accepted and kept for that table key forever (also across a drop and re-create), and an
 * <em>incarnation id</em>, which changes when the type is dropped and re-created or its table must
 * be rebuilt. Together they name the dataset ({@link TableEntry#datasetPath()}), so a re-created
 * type never reads the files of its previous life. Dropped types stay listed as retired so their
 * ids are never handed to another type.
 *
 * <p>The JSON is canonical: types sorted by name, properties by name, constraint lists sorted,
 * fields in a fixed order, no insignificant whitespace. Equal IRs have equal bytes, and
 * {@link #fromJson(String)} refuses a document that is not in this form.
 */
public final class SchemaIr {

  /** Version of the JSON layout; {@link #fromJson(String)} refuses any other. */
  public static final int IR_VERSION = 1;

  /**
   * The physical identity of one table.
   *
   * @param tableKey {@code node:Type} or {@code edge:Type}
   * @param stableTableId the type's stable id, at least 1
   * @param incarnationId the current incarnation, at least 1
   */
  public record TableEntry(TableKey tableKey, long stableTableId, long incarnationId) {

    public TableEntry {
      Objects.requireNonNull(tableKey, "tableKey");
      if (stableTableId < 1 || incarnationId < 1) {
        throw new IllegalArgumentException("table ids start at 1: " + tableKey);
      }
    }

    /** True for {@code node:} tables. */
    public boolean isNode() {
      return tableKey.isNode();
    }

    /** The type name after the {@code node:}/{@code edge:} prefix. */
    public String typeName() {
      return tableKey.typeName();
    }

    /**
     * The dataset directory under the graph root (PRODUCT.md §3):
     * {@code nodes/{stable:016x}-{incarnation:016x}} or {@code edges/...}.
     */
    public String datasetPath() {
      return String.format("%s/%016x-%016x", isNode() ? "nodes" : "edges", stableTableId, incarnationId);
    }

    TableEntry nextIncarnation() {
      return new TableEntry(tableKey, stableTableId, Math.addExact(incarnationId, 1));
    }
  }

  private final Catalog catalog;
  private final SortedMap<TableKey, TableEntry> tables;
  private final SortedMap<TableKey, TableEntry> retired;
  /**
   * Stable property ids (docs/schema-evolution.md; the reference's {@code stable_property_id}): per live table key,
   * property name → id. A property keeps its id across renames (of itself or of its type); a
   * property dropped and added again, or a type re-created, gets a new one. Ids come from one
   * graph-wide allocator and are never reused.
   */
  private final SortedMap<TableKey, SortedMap<String, Long>> propertyIds;
  private final long nextPropertyId;
  /**
   * An IR written before property ids existed: its ids are derived (in table-key, then property
   * order) and not written, so its bytes and identity stay what they were. The next evolution
   * writes them.
   */
  private final boolean legacyIds;
  private final String json;

  /** A legacy-form IR (no property ids in its document): ids derived, not written. */
  SchemaIr(Catalog catalog, Map<TableKey, TableEntry> tables, Map<TableKey, TableEntry> retired) {
    this(catalog, tables, retired, null, 0, true);
  }

  SchemaIr(Catalog catalog, Map<TableKey, TableEntry> tables, Map<TableKey, TableEntry> retired,
      Map<TableKey, ? extends Map<String, Long>> propertyIds, long nextPropertyId, boolean legacyIds) {
    this.catalog = Objects.requireNonNull(catalog, "catalog");
    this.tables = Collections.unmodifiableSortedMap(new TreeMap<>(tables));
    this.retired = Collections.unmodifiableSortedMap(new TreeMap<>(retired));
    this.legacyIds = legacyIds;
    if (propertyIds == null) {
      SortedMap<TableKey, SortedMap<String, Long>> derived = new TreeMap<>();
      long next = 1;
      for (TableKey key : this.tables.keySet()) {
        SortedMap<String, Long> ids = new TreeMap<>();
        for (Property p : propertiesOf(catalog, key)) {
          ids.put(p.name(), next++);
        }
        derived.put(key, ids);
      }
      this.propertyIds = freeze(derived);
      this.nextPropertyId = next;
    } else {
      this.propertyIds = freeze(propertyIds);
      this.nextPropertyId = nextPropertyId;
    }
    IrJson.validate(this);
    IrJson.validatePropertyIds(this);
    this.json = IrJson.write(this);
  }

  private static SortedMap<TableKey, SortedMap<String, Long>> freeze(Map<TableKey, ? extends Map<String, Long>> ids) {
    SortedMap<TableKey, SortedMap<String, Long>> out = new TreeMap<>();
    ids.forEach((k, v) -> out.put(k, Collections.unmodifiableSortedMap(new TreeMap<>(v))));
    return Collections.unmodifiableSortedMap(out);
  }

  static List<Property> propertiesOf(Catalog catalog, TableKey tableKey) {
    String name = tableKey.typeName();
    return tableKey.isNode() ? catalog.node(name).orElseThrow().properties()
        : catalog.edge(name).orElseThrow().properties();
  }

  /**
   * The IR of a fresh graph: stable ids 1..N in sorted table-key order ({@code edge:} before
   * {@code node:}), every incarnation 1. Deterministic, so the same schema always initialises to
   * the same identity.
   */
  public static SchemaIr initial(Catalog catalog) {
    Map<TableKey, TableEntry> tables = new TreeMap<>();
    long next = 1;
    for (TableKey key : catalog.tableKeys()) {
      tables.put(key, new TableEntry(key, next++, 1));
    }
    // Derived ids, not written: the same document (and identity) as before property ids existed.
    return new SchemaIr(catalog, tables, Map.of());
  }

  /** {@link #evolve(SchemaIr, Catalog, Set)} with no table rebuilt. */
  public static SchemaIr evolve(SchemaIr previous, Catalog next) {
    return evolve(previous, next, Set.of());
  }

  /**
   * The IR accepting {@code next} after {@code previous}. A table key present before keeps its ids;
   * one listed in {@code rebuild} keeps its stable id and gets the next incarnation; a retired key
   * coming back gets its old stable id and the incarnation after its last; a new key gets the next
   * unused stable id (in sorted table-key order) and incarnation 1; a key that disappears is retired.
   *
   * @param rebuild table keys, live in both schemas, whose tables the caller will rebuild
   * @throws IllegalArgumentException if {@code rebuild} names a key not live in both schemas
   */
  public static SchemaIr evolve(SchemaIr previous, Catalog next, Set<TableKey> rebuild) {
    return evolve(previous, next, rebuild, Map.of());
  }

  /**
   * As {@link #evolve(SchemaIr, Catalog, Set)}, with renamed types: each {@code renames} entry
   * (new table key → old table key) gives the new key the old key's stable id and incarnation, so a
   * renamed type keeps its dataset, path and versions; the old key is neither live nor retired.
   *
   * @throws IllegalArgumentException if a rename names a key that is not live before and after, or
   *     crosses node and edge
   */
  public static SchemaIr evolve(SchemaIr previous, Catalog next, Set<TableKey> rebuild, Map<TableKey, TableKey> renames) {
    return evolve(previous, next, rebuild, renames, Map.of());
  }

  /**
   * As {@link #evolve(SchemaIr, Catalog, Set, Map)}, with renamed properties: for each table key of
   * {@code next}, new property name → the name it had in {@code previous} (on the table it comes
   * from). A property keeps its stable id when it keeps its name or is renamed; any other property of
   * {@code next} gets a new id.
   */
  public static SchemaIr evolve(SchemaIr previous, Catalog next, Set<TableKey> rebuild, Map<TableKey, TableKey> renames,
      Map<TableKey, Map<String, String>> propertyRenames) {
    return evolve(previous, next, rebuild, renames, propertyRenames, Set.of());
  }

  /**
   * As {@link #evolve(SchemaIr, Catalog, Set, Map, Map)}; each key of {@code revive}, retired in
   * {@code previous} and declared again in {@code next}, comes back as the same incarnation (schema
   * apply revives a soft-dropped type's dataset) instead of a new one. Its properties get new ids.
   *
   * @throws IllegalArgumentException if {@code revive} names a key that is not retired or not declared
   */
  public static SchemaIr evolve(SchemaIr previous, Catalog next, Set<TableKey> rebuild, Map<TableKey, TableKey> renames,
      Map<TableKey, Map<String, String>> propertyRenames, Set<TableKey> revive) {
    for (TableKey key : revive) {
      if (!previous.retired.containsKey(key) || !next.tableKeys().contains(key)) {
        throw new IllegalArgumentException("cannot revive " + key + ": it is not a retired table declared again");
      }
    }
    SchemaIr shaped = evolveTables(previous, next, rebuild, renames, revive);
    long allocator = previous.nextPropertyId;
    SortedMap<TableKey, SortedMap<String, Long>> ids = new TreeMap<>();
    for (TableKey key : shaped.tables.keySet()) {
      TableKey from = renames.getOrDefault(key, key);
      Map<String, Long> before = previous.tables.containsKey(from) ? previous.propertyIds.get(from) : Map.of();
      Map<String, String> renamedFrom = propertyRenames.getOrDefault(key, Map.of());
      SortedMap<String, Long> mine = new TreeMap<>();
      for (Property p : propertiesOf(next, key)) {
        Long id = before.get(renamedFrom.getOrDefault(p.name(), p.name()));
        mine.put(p.name(), id != null ? id : allocator++);
      }
      ids.put(key, mine);
    }
    if (previous.legacyIds && ids.equals(shaped.propertyIds) && allocator == shaped.nextPropertyId) {
      return shaped; // the ids are exactly the derived ones: keep the legacy form (and its bytes)
    }
    return new SchemaIr(next, shaped.tables, shaped.retired, ids, allocator, false);
  }

  private static SchemaIr evolveTables(SchemaIr previous, Catalog next, Set<TableKey> rebuild,
      Map<TableKey, TableKey> renames, Set<TableKey> revive) {
    Set<TableKey> nextKeys = Set.copyOf(next.tableKeys());
    for (Map.Entry<TableKey, TableKey> r : renames.entrySet()) {
      if (!nextKeys.contains(r.getKey()) || !previous.tables.containsKey(r.getValue())
          || nextKeys.contains(r.getValue()) || r.getKey().kind() != r.getValue().kind()) {
        throw new IllegalArgumentException("cannot rename " + r.getValue() + " to " + r.getKey());
      }
    }
    Set<TableKey> renamedAway = Set.copyOf(renames.values());
    for (TableKey key : rebuild) {
      if (!previous.tables.containsKey(key) || !nextKeys.contains(key)) {
        throw new IllegalArgumentException("cannot rebuild " + key + ": it is not a table of both schemas");
      }
    }
    long maxStable = 0;
    for (TableEntry e : previous.tables.values()) {
      maxStable = Math.max(maxStable, e.stableTableId());
    }
    for (TableEntry e : previous.retired.values()) {
      maxStable = Math.max(maxStable, e.stableTableId());
    }
    Map<TableKey, TableEntry> tables = new TreeMap<>();
    Map<TableKey, TableEntry> retired = new TreeMap<>(previous.retired);
    for (TableKey key : next.tableKeys()) {
      TableKey from = renames.get(key);
      if (from != null) {
        TableEntry old = previous.tables.get(from);
        retired.remove(key);
        tables.put(key, new TableEntry(key, old.stableTableId(), old.incarnationId()));
        continue;
      }
      TableEntry live = previous.tables.get(key);
      TableEntry dropped = retired.remove(key);
      TableEntry entry;
      if (live != null) {
        entry = rebuild.contains(key) ? live.nextIncarnation() : live;
      } else if (dropped != null) {
        entry = revive.contains(key) ? dropped : dropped.nextIncarnation();
      } else {
        entry = new TableEntry(key, ++maxStable, 1);
      }
      tables.put(key, entry);
    }
    for (TableEntry e : previous.tables.values()) {
      if (!nextKeys.contains(e.tableKey()) && !renamedAway.contains(e.tableKey())) {
        retired.put(e.tableKey(), e);
      }
    }
    return new SchemaIr(next, tables, retired);
  }

  /**
   * Reads an IR written by {@link #toJson()} or {@link #toPrettyJson()}.
   *
   * @throws IllegalArgumentException if the text is not JSON, not this layout or version, not
   *     internally consistent, or not in canonical order
   */
  public static SchemaIr fromJson(String json) {
    return IrJson.read(json);
  }

  /** The typechecked schema. */
  public Catalog catalog() {
    return catalog;
  }

  /** The stable id of property {@code property} of the live table {@code tableKey}. */
  public Optional<Long> propertyId(TableKey tableKey, String property) {
    return Optional.ofNullable(propertyIds.getOrDefault(tableKey, Collections.emptySortedMap()).get(property));
  }

  SortedMap<TableKey, SortedMap<String, Long>> propertyIdMap() {
    return propertyIds;
  }

  long nextPropertyId() {
    return nextPropertyId;
  }

  boolean legacyIds() {
    return legacyIds;
  }

  /** Live tables, sorted by table key. */
  public List<TableEntry> tables() {
    return List.copyOf(tables.values());
  }

  /** The live table with this key ({@code node:Person}). */
  public Optional<TableEntry> table(TableKey tableKey) {
    return Optional.ofNullable(tables.get(tableKey));
  }

  /** Tables of dropped types, kept so their stable ids are never reused; sorted by table key. */
  public List<TableEntry> retiredTables() {
    return List.copyOf(retired.values());
  }

  /** The canonical JSON: compact, deterministic; the bytes {@link #identity()} hashes. */
  public String toJson() {
    return json;
  }

  /** The same document indented for people; {@link #fromJson(String)} reads it back. */
  public String toPrettyJson() {
    return IrJson.pretty(json);
  }

  /** The accepted-schema identity: lower-case hex SHA-256 of the UTF-8 bytes of {@link #toJson()}. */
  public String identity() {
    // Hashed once: every read keys its checked-query cache by it (docs/performance.md, "Point reads"), and the IR is immutable.
    String known = identity;
    if (known == null) {
      try {
        byte[] digest = MessageDigest.getInstance("SHA-256").digest(json.getBytes(StandardCharsets.UTF_8));
        known = HexFormat.of().formatHex(digest);
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException("every JVM ships SHA-256", e);
      }
      identity = known;
    }
    return known;
  }

  /** {@link #identity()} once computed (a racing first computation yields the same string). */
  private volatile String identity;

  @Override
  public boolean equals(Object o) {
    return o instanceof SchemaIr other && json.equals(other.json);
  }

  @Override
  public int hashCode() {
    return json.hashCode();
  }

  @Override
  public String toString() {
    return "SchemaIr[" + identity() + "]";
  }

  Map<TableKey, TableEntry> tableMap() {
    return tables;
  }

  Map<TableKey, TableEntry> retiredMap() {
    return retired;
  }
}
