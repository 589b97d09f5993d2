package dev.omnigraph.merge;

import dev.omnigraph.api.GraphCommit;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The merge base of two captured lineages (docs/merge.md, "Merge base"), computed from the
 * captured commit ids alone: the common ancestor of the two heads nearest to both, following
 * parent and merged-parent edges. Pure: it reads nothing, so the base is exactly what the two
 * coherent captures say, never a re-read that could mix in a newer tip.
 */
public final class MergeBase {

  private MergeBase() {}

  /**
   * The best common ancestor of {@code sourceHead} and {@code targetHead}: a common ancestor that is
   * not an ancestor of another one (so a head that is an ancestor of the other head is the base,
   * whatever shortcuts merged-parent edges offer), and among several such the one with the
   * smallest sum of distances from both heads, ties broken by the newer manifest version then the
   * larger commit id (so the answer is deterministic); empty when either head is not in the given
   * lineages or they share no commit.
   *
   * @param sourceLineage every commit reachable from the source head, as captured
   * @param targetLineage every commit reachable from the target head, as captured
   */
  public static Optional<GraphCommit> find(Collection<GraphCommit> sourceLineage,
      Collection<GraphCommit> targetLineage, String sourceHead, String targetHead) {
    Map<String, GraphCommit> commits = new HashMap<>();
    sourceLineage.forEach(c -> commits.put(c.id(), c));
    targetLineage.forEach(c -> commits.putIfAbsent(c.id(), c));
    if (!commits.containsKey(sourceHead) || !commits.containsKey(targetHead)) {
      return Optional.empty();
    }
    Map<String, Integer> fromSource = distances(sourceHead, commits);
    Map<String, Integer> fromTarget = distances(targetHead, commits);
    Set<String> common = new HashSet<>();
    fromSource.keySet().forEach(id -> {
      if (fromTarget.containsKey(id) && commits.containsKey(id)) {
        common.add(id);
      }
    });
    // A proper ancestor of a common ancestor is a worse base: drop every one.
    Set<String> dominated = new HashSet<>();
    for (String id : common) {
      markAncestors(id, commits, dominated);
    }
    GraphCommit best = null;
    long bestScore = Long.MAX_VALUE;
    for (Map.Entry<String, Integer> e : fromSource.entrySet()) {
      Integer t = fromTarget.get(e.getKey());
      GraphCommit c = commits.get(e.getKey());
      if (t == null || c == null || dominated.contains(e.getKey())) {
        continue;
      }
      long score = (long) e.getValue() + t;
      if (best == null || score < bestScore || (score == bestScore && newer(c, best))) {
        best = c;
        bestScore = score;
      }
    }
    return Optional.ofNullable(best);
  }

  private static boolean newer(GraphCommit a, GraphCommit b) {
    if (a.manifestVersion() != b.manifestVersion()) {
      return a.manifestVersion() > b.manifestVersion();
    }
    return a.id().compareTo(b.id()) > 0;
  }

  /**
   * Adds every proper ancestor of {@code id} to {@code marked}. A walk stops at a commit already
   * marked (its ancestors are too), so marking from every common ancestor visits each commit once.
   */
  private static void markAncestors(String id, Map<String, GraphCommit> commits, Set<String> marked) {
    Deque<String> stack = new ArrayDeque<>();
    stack.push(id);
    while (!stack.isEmpty()) {
      GraphCommit c = commits.get(stack.pop());
      if (c == null) {
        continue;
      }
      for (Optional<String> p : java.util.List.of(c.parent(), c.mergedParent())) {
        if (p.isPresent() && marked.add(p.get())) {
          stack.push(p.get());
        }
      }
    }
  }

  /** Shortest distance from {@code start} to each ancestor, over parent and merged-parent edges. */
  private static Map<String, Integer> distances(String start, Map<String, GraphCommit> commits) {
    Map<String, Integer> out = new HashMap<>();
    Deque<String> queue = new ArrayDeque<>();
    out.put(start, 0);
    queue.add(start);
    while (!queue.isEmpty()) {
      String id = queue.poll();
      GraphCommit c = commits.get(id);
      if (c == null) {
        continue; // an ancestor outside both captures (e.g. a deleted branch's): a dead end
      }
      int next = out.get(id) + 1;
      for (Optional<String> p : java.util.List.of(c.parent(), c.mergedParent())) {
        if (p.isPresent() && !out.containsKey(p.get())) {
          out.put(p.get(), next);
          queue.add(p.get());
        }
      }
    }
    return out;
  }
}
