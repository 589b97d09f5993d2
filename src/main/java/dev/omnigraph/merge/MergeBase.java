package dev.omnigraph.merge;

import dev.omnigraph.manifest.GraphCommit;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The merge base of two captured lineages (seed, BranchMerge step 2: "compute the merge base from
 * those captured commit ids"): the common ancestor of the two heads nearest to both, following
 * parent and merged-parent edges. Pure: it reads nothing, so the base is exactly what the two
 * coherent captures say, never a re-read that could mix in a newer tip.
 */
public final class MergeBase {

  private MergeBase() {}

  /**
   * The common ancestor of {@code sourceHead} and {@code targetHead} with the smallest sum of
   * distances from both, ties broken by the newer manifest version then the larger commit id (so
   * the answer is deterministic); empty when either head is not in the given lineages or they
   * share no commit.
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
    GraphCommit best = null;
    long bestScore = Long.MAX_VALUE;
    for (Map.Entry<String, Integer> e : fromSource.entrySet()) {
      Integer t = fromTarget.get(e.getKey());
      GraphCommit c = commits.get(e.getKey());
      if (t == null || c == null) {
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
