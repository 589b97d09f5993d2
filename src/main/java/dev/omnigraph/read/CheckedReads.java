package dev.omnigraph.read;

import dev.omnigraph.api.InvalidRequest;
import dev.omnigraph.query.CheckedQuery;
import dev.omnigraph.query.CheckedRead;
import dev.omnigraph.query.QueryChecker;
import dev.omnigraph.query.QueryParser;
import dev.omnigraph.schema.Catalog;
import dev.omnigraph.schema.SchemaIr;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Parsed and checked reads, remembered per (schema identity, query source, query name): a served
 * graph answers the same few named queries over and over, and parsing and checking the source was
 * 13.5% of a point lookup (docs/performance.md, "Point reads"). A checked read is immutable and depends only on the source,
 * the name and the schema it was checked against; the schema's identity (SHA-256 of its IR) names
 * that schema exactly, so a schema apply (a new identity) never meets an entry checked against the
 * old one, and a read at an older commit (checked against the schema of that commit) has its own.
 * Parameters are bound per run, after the lookup. Bounded: least recently used past
 * {@link #MAX_ENTRIES}. A source that does not parse or check is not remembered (it throws again).
 *
 * <p>One instance per open graph root (held with its schema, {@code engine.SchemaHolder}), never a
 * static map keyed by root.
 */
public final class CheckedReads {

  /** Entries kept; a served graph's named queries fit many times over. */
  static final int MAX_ENTRIES = 256;

  private record Key(String schemaIdentity, String source, String name) {}

  private final LinkedHashMap<Key, CheckedRead> entries = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<Key, CheckedRead> eldest) {
      return size() > MAX_ENTRIES;
    }
  };
  private final AtomicLong checks = new AtomicLong();

  /** An empty cache. */
  public CheckedReads() {}

  /**
   * Read {@code name} of {@code source} checked against {@code ir}: remembered, or parsed and
   * checked now.
   *
   * @throws dev.omnigraph.query.QueryException when the source does not parse or check
   * @throws InvalidRequest when {@code name} is a mutation
   */
  public CheckedRead read(SchemaIr ir, String source, String name) {
    Key key = new Key(ir.identity(), source, name);
    synchronized (entries) {
      CheckedRead known = entries.get(key);
      if (known != null) {
        return known;
      }
    }
    CheckedRead checked = check(ir.catalog(), source, name);
    checks.incrementAndGet();
    synchronized (entries) {
      entries.put(key, checked);
    }
    return checked;
  }

  /** How many parses and checks this cache ran (misses): a test's seam. */
  public long checks() {
    return checks.get();
  }

  /** Parses and checks read {@code name} of {@code source} against {@code catalog}, uncached. */
  static CheckedRead check(Catalog catalog, String source, String name) {
    CheckedQuery checked = QueryChecker.check(QueryParser.parse(source).declaration(name), catalog);
    if (!(checked instanceof CheckedRead read)) {
      throw new InvalidRequest("'" + name + "' is a mutation; run it with mutate, not query");
    }
    return read;
  }
}
