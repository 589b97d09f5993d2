package dev.omnigraph.read;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The src → dst (and dst → src) adjacency of one exact edge-table version, in compressed sparse
 * rows over a dictionary of node ids: two int arrays per direction instead of a map of strings, so
 * a million edges cost a few tens of MiB. Immutable once built.
 */
final class Adjacency {

  private final String[] ids;
  private final Map<String, Integer> index;
  private final int[] outStart;
  private final int[] outTargets;
  private final int[] inStart;
  private final int[] inTargets;

  private Adjacency(String[] ids, Map<String, Integer> index, int[] outStart, int[] outTargets, int[] inStart,
      int[] inTargets) {
    this.ids = ids;
    this.index = index;
    this.outStart = outStart;
    this.outTargets = outTargets;
    this.inStart = inStart;
    this.inTargets = inTargets;
  }

  int edgeCount() {
    return outTargets.length;
  }

  /** Accumulates edges, then {@link #build()}s the index. */
  static final class Builder {
    private final Map<String, Integer> index = new HashMap<>();
    private String[] ids = new String[1024];
    private int[] src = new int[1024];
    private int[] dst = new int[1024];
    private int edges;

    void add(String from, String to) {
      if (edges == src.length) {
        src = Arrays.copyOf(src, edges * 2);
        dst = Arrays.copyOf(dst, edges * 2);
      }
      src[edges] = id(from);
      dst[edges] = id(to);
      edges++;
    }

    private int id(String s) {
      Integer known = index.get(s);
      if (known != null) {
        return known;
      }
      int next = index.size();
      if (next == ids.length) {
        ids = Arrays.copyOf(ids, next * 2);
      }
      ids[next] = s;
      index.put(s, next);
      return next;
    }

    Adjacency build() {
      int n = index.size();
      int[][] out = csr(n, src, dst, edges);
      int[][] in = csr(n, dst, src, edges);
      return new Adjacency(Arrays.copyOf(ids, n), index, out[0], out[1], in[0], in[1]);
    }

    private static int[][] csr(int n, int[] from, int[] to, int edges) {
      int[] start = new int[n + 1];
      for (int i = 0; i < edges; i++) {
        start[from[i] + 1]++;
      }
      for (int i = 0; i < n; i++) {
        start[i + 1] += start[i];
      }
      int[] fill = Arrays.copyOf(start, n);
      int[] targets = new int[edges];
      for (int i = 0; i < edges; i++) {
        targets[fill[from[i]]++] = to[i];
      }
      return new int[][] {start, targets};
    }
  }

  /** The dictionary position of a node id, or -1 when no edge touches it. */
  int position(String id) {
    Integer i = index.get(id);
    return i == null ? -1 : i;
  }

  /** Nodes any edge touches: dictionary positions are {@code 0 .. nodeCount() - 1}. */
  int nodeCount() {
    return ids.length;
  }

  /** The node id at a dictionary position. */
  String id(int position) {
    return ids[position];
  }

  /**
   * One read's walker over one-hop neighbourhoods: the distinct nodes one hop from a node, as
   * {@link #reach} with {@code {1,1}} reports them (a self-loop once, a node joined twice once), with
   * one marker array reused for every node instead of a visited set per call. That is what lets a
   * grouped aggregate walk every node's neighbourhood of a million-edge table (docs/performance.md)
   * without allocating per node. Not thread-safe: one per read.
   */
  final class OneHop {
    private final int[] marks = new int[ids.length];
    private int epoch;

    /**
     * Calls {@code sink} with the dictionary position of each distinct one-hop neighbour of the
     * node at {@code position}, along the edges ({@code forward}) or against them, or either way.
     *
     * @return how many neighbours were reported
     */
    int forEach(int position, boolean forward, boolean eitherWay, java.util.function.IntConsumer sink) {
      if (++epoch == 0) {
        java.util.Arrays.fill(marks, 0);
        epoch = 1;
      }
      int n = walk(position, forward ? outStart : inStart, forward ? outTargets : inTargets, sink);
      if (eitherWay) {
        n += walk(position, forward ? inStart : outStart, forward ? inTargets : outTargets, sink);
      }
      return n;
    }

    private int walk(int node, int[] start, int[] targets, java.util.function.IntConsumer sink) {
      int n = 0;
      for (int e = start[node]; e < start[node + 1]; e++) {
        int t = targets[e];
        if (marks[t] != epoch) {
          marks[t] = epoch;
          sink.accept(t);
          n++;
        }
      }
      return n;
    }
  }

  /**
   * The distinct nodes whose breadth-first distance from {@code origin} along the edges (forward or
   * reverse) lies in {@code [minHops, maxHops]}. Each node is reached once (a visited set prunes
   * longer paths to it and cycles back to the origin), so every destination is reported once per
   * origin. The origin itself is at distance 1 when it has a self-loop, and otherwise never
   * reported (the reference's docs/user/queries/traversal.md: a cycle back does not return it).
   */
  java.util.List<String> reach(String origin, boolean forward, int minHops, int maxHops) {
    return forward ? reach(origin, minHops, maxHops, outStart, outTargets)
        : reach(origin, minHops, maxHops, inStart, inTargets);
  }

  /**
   * As {@link #reach(String, boolean, int, int)} with every edge followed both ways: the undirected
   * traversal. The one visited set makes it a set: a pair joined both ways is reached once.
   */
  java.util.List<String> reachEitherWay(String origin, int minHops, int maxHops) {
    return reach(origin, minHops, maxHops, outStart, outTargets, inStart, inTargets);
  }

  /** Breadth-first over the given (start, targets) adjacency arrays, pairs of them followed together. */
  private java.util.List<String> reach(String origin, int minHops, int maxHops, int[]... adjacency) {
    Integer o = index.get(origin);
    java.util.List<String> out = new java.util.ArrayList<>();
    if (o == null) {
      return out;
    }
    java.util.BitSet visited = new java.util.BitSet(ids.length);
    visited.set(o);
    int[] frontier = {o};
    int frontierSize = 1;
    boolean originLooped = false;
    for (int depth = 1; depth <= maxHops && frontierSize > 0; depth++) {
      int[] next = new int[16];
      int nextSize = 0;
      for (int f = 0; f < frontierSize; f++) {
        int node = frontier[f];
        for (int a = 0; a < adjacency.length; a += 2) {
          int[] start = adjacency[a];
          int[] targets = adjacency[a + 1];
          for (int e = start[node]; e < start[node + 1]; e++) {
            int t = targets[e];
            if (t == o && depth == 1 && !originLooped) {
              // The origin is visited before the first hop, so without this its own self-loop would
              // be pruned like a cycle and `$a knows $a` would never match. Reported once (an
              // undirected loop appears in both directions), never expanded again: its neighbours
              // are the frontier already.
              originLooped = true;
              if (minHops <= 1) {
                out.add(ids[t]);
              }
            } else if (!visited.get(t)) {
              visited.set(t);
              if (nextSize == next.length) {
                next = Arrays.copyOf(next, nextSize * 2);
              }
              next[nextSize++] = t;
              if (depth >= minHops) {
                out.add(ids[t]);
              }
            }
          }
        }
      }
      frontier = next;
      frontierSize = nextSize;
    }
    return out;
  }
}
