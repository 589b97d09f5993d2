package dev.omnigraph.sim;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What the graph must hold, kept in memory beside it: per branch, the Person rows (name to age); per
 * branch other than main, its merge base with main (the rows at its creation, then at its last merge
 * into main); and the rows read at every commit seen, for reads at a named snapshot. Names are
 * unique over a history and rows are never updated, so a three-way merge is exact in set terms:
 * {@code target + (source - base) - (base - source)}.
 */
final class GraphModel {

  /** Rows of one branch state: name to age, sorted so two states compare and print alike. */
  static final class Rows extends TreeMap<String, Integer> {
    Rows() {}

    Rows(Map<String, Integer> from) {
      super(from);
    }
  }

  private final Map<String, Rows> branches = new TreeMap<>();
  private final Map<String, Rows> bases = new HashMap<>();
  /** Commit id to the rows read there, and the branch it was read on; shared by a model's copies. */
  private final Map<String, Rows> commits;
  private final Map<String, String> commitBranch;

  GraphModel() {
    this(new HashMap<>(), new HashMap<>());
    branches.put("main", new Rows());
  }

  private GraphModel(Map<String, Rows> commits, Map<String, String> commitBranch) {
    this.commits = commits;
    this.commitBranch = commitBranch;
  }

  /** A copy to apply an operation to; it shares the commits seen. */
  GraphModel copy() {
    GraphModel c = new GraphModel(commits, commitBranch);
    c.become(this);
    return c;
  }

  /** Takes {@code other}'s branches and merge bases (the state a landed operation left). */
  void become(GraphModel other) {
    Map<String, Rows> b = new TreeMap<>();
    other.branches.forEach((k, v) -> b.put(k, new Rows(v)));
    Map<String, Rows> m = new HashMap<>();
    other.bases.forEach((k, v) -> m.put(k, new Rows(v)));
    branches.clear();
    branches.putAll(b);
    bases.clear();
    bases.putAll(m);
  }

  Map<String, Rows> branches() {
    return branches;
  }

  Rows rows(String branch) {
    return branches.get(branch);
  }

  Optional<Rows> atCommit(String commitId) {
    return Optional.ofNullable(commits.get(commitId));
  }

  /** Records that {@code branch} read {@code rows} at {@code commitId}; a commit's rows never change. */
  Optional<Rows> remember(String branch, String commitId, Rows rows) {
    commitBranch.putIfAbsent(commitId, branch);
    Rows before = commits.putIfAbsent(commitId, new Rows(rows));
    return before == null || before.equals(rows) ? Optional.empty() : Optional.of(before);
  }

  /** Commits seen, in a stable order, on branches that still exist (a deleted branch's may be gone). */
  java.util.List<String> liveCommits() {
    return commits.keySet().stream().filter(c -> branches.containsKey(commitBranch.get(c))).sorted().toList();
  }

  void create(String branch, String from) {
    branches.put(branch, new Rows(branches.get(from)));
    bases.put(branch, new Rows(branches.get(from)));
  }

  void delete(String branch) {
    branches.remove(branch);
    bases.remove(branch);
  }

  /** What main holds after merging {@code source} into it. */
  Rows merged(String source) {
    Rows base = bases.get(source);
    Rows src = branches.get(source);
    Rows out = new Rows(branches.get("main"));
    src.forEach((k, v) -> {
      if (!base.containsKey(k)) {
        out.put(k, v);
      }
    });
    base.keySet().forEach(k -> {
      if (!src.containsKey(k)) {
        out.remove(k);
      }
    });
    return out;
  }

  /** {@code source} was merged into main: main holds {@code result}, and the merge base moves to the source. */
  void mergedInto(String source, Rows result) {
    branches.put("main", new Rows(result));
    bases.put(source, new Rows(branches.get(source)));
  }
}
