package dev.omnigraph.read;

import dev.omnigraph.manifest.TablePin;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.table.Filter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The neighbours of a few nodes of one exact edge-table version, read on demand from the table's
 * {@code src}/{@code dst} BTree key indexes (one {@code src IN (…)} or {@code dst IN (…)} probe per
 * hop for the nodes not read yet), for selective expansions: a traversal from a handful of nodes
 * then costs index probes instead of building the CSR of the whole edge table. The CSR
 * ({@link Adjacency}) stays for dense frontiers: once more than {@link #MAX_PROBED} nodes were
 * probed this object refuses ({@link #reach} returns null) and the caller uses the CSR. Same answers
 * as {@link Adjacency#reach} (the same edges at the same version; a breadth-first search with one
 * visited set per origin). Not thread-safe; one per query run and edge table.
 */
final class ProbedAdjacency {

  /** Distinct origins one traversal step may expand through probes. */
  static final int MAX_ORIGINS = 64;

  /**
   * Rows outside the src/dst key index a probe may scan: beyond this (a large write not yet folded
   * into the index by optimize) every hop would scan them, and one CSR build is cheaper.
   */
  static final long MAX_UNINDEXED_ROWS = 50_000;

  /** Nodes probed over the whole query before the CSR takes over. */
  static final int MAX_PROBED = 4_096;

  /** Ids per probe filter (as the key probes of the table layer). */
  private static final int CHUNK = 1_000;

  private final DataTables tables;
  private final TablePin pin;
  private final Map<String, List<String>> out = new HashMap<>();
  private final Map<String, List<String>> in = new HashMap<>();
  private final int maxProbed;
  private int probed;
  private boolean exhausted;

  ProbedAdjacency(DataTables tables, TablePin pin) {
    this(tables, pin, MAX_PROBED);
  }

  /** With a budget of {@code maxProbed} probed nodes (tests). */
  ProbedAdjacency(DataTables tables, TablePin pin, int maxProbed) {
    this.tables = tables;
    this.pin = pin;
    this.maxProbed = maxProbed;
  }

  /** Whether this table outgrew probing in this query (the CSR answers from now on). */
  boolean exhausted() {
    return exhausted;
  }

  /**
   * For each origin, the distinct nodes whose breadth-first distance from it (forward, reverse, or
   * either way) lies in {@code [minHops, maxHops]}, as {@link Adjacency#reach}; null when answering
   * would probe more than the budget ({@link #MAX_PROBED}) of nodes in this query.
   */
  Map<String, List<String>> reach(Collection<String> origins, boolean forward, boolean undirected, int minHops,
      int maxHops) {
    if (exhausted) {
      return null;
    }
    Map<String, Set<String>> visited = new LinkedHashMap<>();
    Map<String, List<String>> frontier = new LinkedHashMap<>();
    Map<String, List<String>> reached = new LinkedHashMap<>();
    // Origins already reported through their own self-loop (distance 1), as Adjacency#reach.
    Set<String> looped = new java.util.HashSet<>();
    for (String o : origins) {
      visited.put(o, new LinkedHashSet<>(List.of(o)));
      frontier.put(o, List.of(o));
      reached.put(o, new ArrayList<>());
    }
    for (int depth = 1; depth <= maxHops; depth++) {
      Set<String> need = new LinkedHashSet<>();
      frontier.values().forEach(need::addAll);
      if (need.isEmpty()) {
        break;
      }
      boolean ok = !(undirected || forward) || ensure(need, out, "src");
      ok = ok && (!(undirected || !forward) || ensure(need, in, "dst"));
      if (!ok) {
        return null;
      }
      for (String o : origins) {
        List<String> next = new ArrayList<>();
        for (String node : frontier.get(o)) {
          for (String t : neighbours(node, forward, undirected)) {
            if (depth == 1 && t.equals(o)) {
              // The origin is in its visited set from the start; its self-loop is still one hop.
              if (looped.add(o) && minHops <= 1) {
                reached.get(o).add(t);
              }
            } else if (visited.get(o).add(t)) {
              next.add(t);
              if (depth >= minHops) {
                reached.get(o).add(t);
              }
            }
          }
        }
        frontier.put(o, next);
      }
    }
    return reached;
  }

  private List<String> neighbours(String node, boolean forward, boolean undirected) {
    if (!undirected) {
      return (forward ? out : in).getOrDefault(node, List.of());
    }
    List<String> both = new ArrayList<>(out.getOrDefault(node, List.of()));
    both.addAll(in.getOrDefault(node, List.of()));
    return both;
  }

  /** Probes {@code column} for the nodes of {@code need} not read yet; false when over budget. */
  private boolean ensure(Set<String> need, Map<String, List<String>> into, String column) {
    List<String> missing = need.stream().filter(n -> !into.containsKey(n)).toList();
    if (missing.isEmpty()) {
      return true;
    }
    probed += missing.size();
    if (probed > maxProbed) {
      exhausted = true;
      return false;
    }
    String other = column.equals("src") ? "dst" : "src";
    for (int i = 0; i < missing.size(); i += CHUNK) {
      List<String> chunk = missing.subList(i, Math.min(missing.size(), i + CHUNK));
      chunk.forEach(n -> into.put(n, new ArrayList<>()));
      tables.scan(pin.at(), Filter.in(column, chunk), List.of(column, other), row -> into.get((String) row.get(column)).add((String) row.get(other)));
    }
    return true;
  }
}
