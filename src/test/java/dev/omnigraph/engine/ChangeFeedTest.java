package dev.omnigraph.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omnigraph.api.ChangeFeedOutput;
import dev.omnigraph.api.ChangeOp;
import dev.omnigraph.api.ChangesPage;
import dev.omnigraph.api.CommitChangesOutput;
import dev.omnigraph.api.InvalidRequest;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link ChangeFeed} over a scripted history (genesis G, then A with two changes, B with one): the
 * cases the HTTP test cannot stage, a head that moves during a poll ({@code caught_up: false}) and a
 * first-parent walk past a merge, plus the token rules.
 */
class ChangeFeedTest {

  private final Map<String, String> parents = new HashMap<>(Map.of("G", "", "A", "G", "B", "A"));
  private final Map<String, Integer> sizes = new HashMap<>(Map.of("A", 2, "B", 1));
  private final Deque<String> heads = new ArrayDeque<>();
  private String head = "B";

  private final ChangeFeed.History history = new ChangeFeed.History() {
    @Override
    public Optional<String> head(String branch) {
      return Optional.of(heads.isEmpty() ? head : heads.poll());
    }

    @Override
    public Map<String, String> firstParents(String branch) {
      Map<String, String> out = new HashMap<>();
      parents.forEach((c, p) -> out.put(c, p.isEmpty() ? null : p));
      return out;
    }

    @Override
    public CommitChangesOutput changes(String commitId, ChangesPage page) {
      int from = page.pageToken().map(Integer::parseInt).orElse(0);
      int to = Math.min(sizes.get(commitId), from + page.limit());
      List<CommitChangesOutput.EntityChange> changes = new ArrayList<>();
      for (int i = from; i < to; i++) {
        changes.add(new CommitChangesOutput.EntityChange("node", new CommitChangesOutput.TypeRef("1", "P"),
            commitId + i, ChangeOp.INSERT, null, null));
      }
      return new CommitChangesOutput(new CommitChangesOutput.Cause(commitId, parents.get(commitId), null, "main",
          null, 0), changes, to < sizes.get(commitId) ? Integer.toString(to) : null);
    }
  };

  private static ChangesPage limit(int n) {
    return new ChangesPage(n, Optional.empty(), Set.of(), Set.of(), Set.of());
  }

  private static List<String> ids(ChangeFeedOutput out) {
    return out.blocks().stream().flatMap(b -> b.changes().stream()).map(CommitChangesOutput.EntityChange::id).toList();
  }

  @Test
  void fromTheBeginningEveryCommitButGenesisIsABlockAndTheCursorComesLast() {
    ChangeFeedOutput first = ChangeFeed.poll(history, "main", Optional.empty(), Optional.of("beginning"),
        Optional.empty(), limit(1));
    assertThat(ids(first)).containsExactly("A0");
    assertThat(first.cursor()).isNull();
    assertThat(first.caughtUp()).isNull();
    ChangeFeedOutput second = ChangeFeed.poll(history, "main", Optional.empty(), Optional.empty(),
        Optional.of(first.nextPageToken()), limit(2));
    assertThat(ids(second)).containsExactly("A1", "B0");
    assertThat(second.nextPageToken()).isNull();
    assertThat(second.caughtUp()).isTrue();
    ChangeFeedOutput after = ChangeFeed.poll(history, "main", Optional.of(second.cursor()), Optional.empty(),
        Optional.empty(), limit(10));
    assertThat(after.blocks()).isEmpty();
    assertThat(after.caughtUp()).isTrue();
  }

  @Test
  void aHeadThatMovesDuringThePollIsNotCaughtUpAndTheNextPollReadsIt() {
    String cursor = ChangeFeed.poll(history, "main", Optional.empty(), Optional.of("after:A"), Optional.empty(),
        limit(10)).cursor();
    parents.put("C", "B");
    sizes.put("C", 1);
    heads.add("B"); // the cut
    heads.add("C"); // the head when the page ends
    ChangeFeedOutput stale = ChangeFeed.poll(history, "main", Optional.of(cursor), Optional.empty(), Optional.empty(),
        limit(10));
    assertThat(stale.blocks()).isEmpty();
    assertThat(stale.caughtUp()).isFalse();
    head = "C";
    assertThat(ids(ChangeFeed.poll(history, "main", Optional.of(stale.cursor()), Optional.empty(), Optional.empty(),
        limit(10)))).containsExactly("C0");
  }

  @Test
  void aMergeIsOneBlockOnTheFirstParentChain() {
    // M merges side branch S (whose own commit is not on main's first-parent chain).
    parents.put("S", "A");
    parents.put("M", "B");
    sizes.put("M", 1);
    head = "M";
    ChangeFeedOutput out = ChangeFeed.poll(history, "main", Optional.empty(), Optional.of("after:B"),
        Optional.empty(), limit(10));
    assertThat(ids(out)).containsExactly("M0");
  }

  @Test
  void tokensAreBoundToTheirBranchScopeAndKind() {
    String cursor = ChangeFeed.poll(history, "main", Optional.empty(), Optional.empty(), Optional.empty(),
        limit(10)).cursor();
    assertThatThrownBy(() -> ChangeFeed.poll(history, "dev", Optional.of(cursor), Optional.empty(), Optional.empty(),
        limit(10))).isInstanceOf(InvalidRequest.class).hasMessage("'cursor' belongs to branch 'main', not 'dev'");
    assertThatThrownBy(() -> ChangeFeed.poll(history, "main", Optional.of(cursor), Optional.empty(), Optional.empty(),
        new ChangesPage(10, Optional.empty(), Set.of("edge"), Set.of(), Set.of())))
        .isInstanceOf(InvalidRequest.class).hasMessageStartingWith("'cursor' was issued for another scope");
    assertThatThrownBy(() -> ChangeFeed.poll(history, "main", Optional.empty(), Optional.empty(), Optional.of(cursor),
        limit(10))).hasMessage("'page_token' is not a page_token this server issued");
    assertThatThrownBy(() -> ChangeFeed.poll(history, "main", Optional.empty(), Optional.of("after:Z"),
        Optional.empty(), limit(10))).hasMessage("commit Z is not on the first-parent history of branch 'main' up to B");
  }
}
