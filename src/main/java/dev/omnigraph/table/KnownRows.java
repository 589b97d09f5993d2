package dev.omnigraph.table;

import java.util.Map;
import java.util.Set;

/**
 * What a writer already learned about some ids at exactly the read version it stages against:
 * where each found row is ({@code _rowaddr}, from a scan of that same version) and which ids were
 * proven absent (an exact-id preflight of that version). A stager given rows that cover every id
 * it writes uses them instead of probing the table again (docs/write-path.md, "what a write costs": one read of the row's fragment
 * per write, not two). Valid only for the version and branch it was read at; a stager at another
 * version or on another branch must be given {@link #NONE}.
 */
public record KnownRows(Map<String, Long> addresses, Set<String> absent) {

  public static final KnownRows NONE = new KnownRows(Map.of(), Set.of());

  public KnownRows {
    addresses = Map.copyOf(addresses);
    absent = Set.copyOf(absent);
  }

  /** Whether every id in {@code ids} is located or proven absent here. */
  boolean covers(java.util.Collection<String> ids) {
    for (String id : ids) {
      if (!addresses.containsKey(id) && !absent.contains(id)) {
        return false;
      }
    }
    return true;
  }
}
