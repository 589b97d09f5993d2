package dev.omnigraph.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.omnigraph.api.GraphCommit;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@link MergeBase}: the best common ancestor over parent and merged-parent edges. */
class MergeBaseTest {

  private static GraphCommit c(String id, String parent, String mergedParent, long version) {
    return new GraphCommit(id, Optional.ofNullable(parent), Optional.ofNullable(mergedParent), Optional.empty(),
        version, "main", version);
  }

  private static String base(List<GraphCommit> source, List<GraphCommit> target, String s, String t) {
    return MergeBase.find(source, target, s, t).map(GraphCommit::id).orElse("none");
  }

  @Test
  void aTargetHeadTheSourceDescendsFromIsTheBase() {
    List<GraphCommit> line = List.of(c("a", null, null, 1), c("b", "a", null, 2), c("c", "b", null, 3));
    assertEquals("b", base(line, line.subList(0, 2), "c", "b"));
    assertEquals("b", base(line.subList(0, 2), line, "b", "c"), "a source the target descends from: up to date");
  }

  @Test
  void divergedBranchesMeetAtTheirForkPoint() {
    List<GraphCommit> source = List.of(c("root", null, null, 1), c("fork", "root", null, 2), c("s1", "fork", null, 3));
    List<GraphCommit> target = List.of(c("root", null, null, 1), c("fork", "root", null, 2), c("t1", "fork", null, 3),
        c("t2", "t1", null, 4));
    assertEquals("fork", base(source, target, "s1", "t2"));
  }

  @Test
  void aMergedParentShortcutNeverBeatsAHeadThatIsItselfAnAncestor() {
    // s reaches old commit c in one merged-parent step, and the target head t in three parent
    // steps. Smallest distance sum alone would pick c (1 + 1 < 3 + 0); c is an ancestor of t, so
    // t is the better base: the merge is a fast forward.
    List<GraphCommit> source = List.of(c("c", null, null, 1), c("t", "c", null, 2), c("a", "t", null, 3),
        c("b", "a", null, 4), c("s", "b", "c", 5));
    List<GraphCommit> target = List.of(c("c", null, null, 1), c("t", "c", null, 2));
    assertEquals("t", base(source, target, "s", "t"));
  }

  @Test
  void ofTwoCrissCrossBasesTheNearerIsChosenAndNeitherOfTheirAncestors() {
    // x and y are both maximal common ancestors (each side merged the other's); root is dominated.
    List<GraphCommit> all = List.of(c("root", null, null, 1), c("x", "root", null, 2), c("y", "root", null, 3),
        c("s1", "x", "y", 4), c("t1", "y", "x", 5), c("s2", "s1", null, 6));
    String chosen = base(all, all, "s2", "t1");
    assertTrue(chosen.equals("x") || chosen.equals("y"), chosen);
    // x: 2 from s2 + 1 from t1 = 3; y: 2 + 1 = 3; the tie goes to the newer manifest version (y).
    assertEquals("y", chosen);
  }

  @Test
  void noSharedCommitIsEmpty() {
    assertEquals("none", base(List.of(c("a", null, null, 1)), List.of(c("b", null, null, 1)), "a", "b"));
    assertEquals("none", base(List.of(c("a", null, null, 1)), List.of(), "a", "missing"));
  }
}
