package dev.omnigraph.engine;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omnigraph.api.ChangeFeedOutput;
import dev.omnigraph.api.ChangeOp;
import dev.omnigraph.api.ChangesPage;
import dev.omnigraph.api.CommitChangesOutput;
import dev.omnigraph.api.InvalidRequest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The branch change feed (reference {@code GET /changes}, docs/user/branching/changes.md): the
 * commits of a branch's first-parent history after a position, up to the head captured when the poll
 * began (its cut), as blocks of each commit's entity changes against its first parent (the same diff
 * as {@code /commits/{id}/changes}). Stateless: where a poll stands travels in its tokens.
 *
 * <p>A {@code cursor} is durable: it names the last complete commit, and the branch and scope (kinds,
 * types, ops) it was issued for; it is returned only on a terminal page, so an interrupted poll never
 * advances it (at-least-once: a retried cursor may replay the next commit). A {@code page_token}
 * continues one poll: its cut, the last complete commit, and the commit in progress with the position
 * inside it. Both are opaque base64url JSON; a token of another branch or scope is 400.
 */
final class ChangeFeed {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** A decoded cursor or page token. {@code after} empty: before the first commit after genesis. */
  record Position(
      @JsonProperty("v") int version,
      @JsonProperty("b") String branch,
      @JsonProperty("k") List<String> kinds,
      @JsonProperty("t") List<String> types,
      @JsonProperty("o") List<String> ops,
      @JsonProperty("a") String after,
      @JsonProperty("cut") String cut,
      @JsonProperty("at") String inCommit,
      @JsonProperty("tok") String inCommitToken) {}

  /** The commit ids of a branch's history, and one commit's changes. */
  interface History {
    /** The branch head now (empty: nothing published). */
    Optional<String> head(String branch);

    /** First parent of each commit reachable from {@code head}, by id (genesis maps to null). */
    java.util.Map<String, String> firstParents(String branch);

    CommitChangesOutput changes(String commitId, ChangesPage page);
  }

  private ChangeFeed() {}

  static String encode(Position p) {
    try {
      return Base64.getUrlEncoder().withoutPadding().encodeToString(JSON.writeValueAsBytes(p));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  static Position decode(String what, String token) {
    try {
      Position p = JSON.readValue(Base64.getUrlDecoder().decode(token), Position.class);
      if (p.version() != 1 || p.branch() == null || p.kinds() == null || p.types() == null || p.ops() == null) {
        throw new IllegalArgumentException("unknown version");
      }
      return p;
    } catch (IllegalArgumentException | IOException e) {
      throw new InvalidRequest("'" + what + "' is not a " + what + " this server issued");
    }
  }

  static List<String> sorted(Set<String> values) {
    return List.copyOf(new TreeSet<>(values));
  }

  static List<String> opsOf(Set<ChangeOp> ops) {
    return ops.stream().map(ChangeOp::wire).sorted().toList();
  }

  /** A durable cursor positioned after {@code commit} on {@code branch} for the given scope. */
  static String cursor(String branch, List<String> kinds, List<String> types, List<String> ops, Optional<String> commit) {
    return encode(new Position(1, branch, kinds, types, ops, commit.orElse(null), null, null, null));
  }

  /**
   * One poll.
   *
   * @param start {@code now} (default), {@code beginning} or {@code after:<commit id>}; exclusive with the tokens
   * @param filter the page size and the scope (kinds, types, ops); its page token is unused
   * @throws InvalidRequest for exclusive parameters given together, a foreign token, a token of another
   *     branch or scope, or a start commit that is not on the branch's first-parent history
   */
  static ChangeFeedOutput poll(History history, String branch, Optional<String> cursor, Optional<String> start,
      Optional<String> pageToken, ChangesPage filter) {
    int given = (cursor.isPresent() ? 1 : 0) + (start.isPresent() ? 1 : 0) + (pageToken.isPresent() ? 1 : 0);
    if (given > 1) {
      throw new InvalidRequest("'cursor', 'start' and 'page_token' are mutually exclusive");
    }
    List<String> kinds = sorted(filter.kinds());
    List<String> types = sorted(filter.types());
    List<String> ops = opsOf(filter.ops());
    boolean scoped = !kinds.isEmpty() || !types.isEmpty() || !ops.isEmpty();
    Optional<String> after;
    String cut;
    Optional<String> inCommit = Optional.empty();
    Optional<String> inCommitToken = Optional.empty();
    Optional<String> token = cursor.isPresent() ? cursor : pageToken;
    if (token.isPresent()) {
      String what = cursor.isPresent() ? "cursor" : "page_token";
      Position p = decode(what, token.get());
      if (!p.branch().equals(branch)) {
        throw new InvalidRequest("'" + what + "' belongs to branch '" + p.branch() + "', not '" + branch + "'");
      }
      if (scoped && !(p.kinds().equals(kinds) && p.types().equals(types) && p.ops().equals(ops))) {
        // The scope is bound into the token: a different filter would skip or repeat changes silently.
        throw new InvalidRequest("'" + what + "' was issued for another scope (kind/type/op); omit the filters"
            + " or repeat the ones it was issued with");
      }
      kinds = p.kinds();
      types = p.types();
      ops = p.ops();
      after = Optional.ofNullable(p.after());
      if (pageToken.isPresent()) {
        if (p.cut() == null) {
          throw new InvalidRequest("'page_token' is not a page_token this server issued");
        }
        cut = p.cut();
        inCommit = Optional.ofNullable(p.inCommit());
        inCommitToken = Optional.ofNullable(p.inCommitToken());
      } else {
        cut = history.head(branch).orElse(null);
      }
    } else {
      String mode = start.orElse("now");
      Optional<String> head = history.head(branch);
      cut = head.orElse(null);
      if (mode.equals("now")) {
        after = head;
      } else if (mode.equals("beginning")) {
        after = Optional.empty();
      } else if (mode.startsWith("after:") && mode.length() > "after:".length()) {
        after = Optional.of(mode.substring("after:".length()));
      } else {
        throw new InvalidRequest("'start' must be now, beginning or after:<commit id>, got '" + mode + "'");
      }
    }
    ChangesPage scope = new ChangesPage(filter.limit(), Optional.empty(), Set.copyOf(kinds), Set.copyOf(types),
        ops.stream().map(ChangeOp::parse).collect(java.util.stream.Collectors.toSet()));
    List<String> pending = commitsAfter(history, branch, cut, after);
    if (inCommit.isPresent()) {
      int at = pending.indexOf(inCommit.get());
      if (at < 0) {
        throw new InvalidRequest("'page_token' does not continue a poll of branch '" + branch + "'");
      }
      pending = pending.subList(at, pending.size());
    }

    List<ChangeFeedOutput.Block> blocks = new ArrayList<>();
    int budget = filter.limit();
    Optional<String> lastComplete = after;
    for (int i = 0; i < pending.size(); i++) {
      String commit = pending.get(i);
      if (budget == 0) {
        return new ChangeFeedOutput(blocks, null, null, encode(new Position(1, branch, kinds, types, ops,
            lastComplete.orElse(null), cut, commit, null)));
      }
      Optional<String> within = i == 0 ? inCommitToken : Optional.empty();
      CommitChangesOutput page = history.changes(commit, new ChangesPage(budget, within, scope.kinds(), scope.types(),
          scope.ops()));
      if (!page.changes().isEmpty()) {
        blocks.add(new ChangeFeedOutput.Block(page.cause(), page.changes()));
      }
      budget -= page.changes().size();
      if (page.nextPageToken() != null) {
        // The limit ended inside this commit: the next page resumes in it; no durable cursor yet.
        return new ChangeFeedOutput(blocks, null, null, encode(new Position(1, branch, kinds, types, ops,
            lastComplete.orElse(null), cut, commit, page.nextPageToken())));
      }
      lastComplete = Optional.of(commit);
    }
    Optional<String> end = cut == null ? after : Optional.of(cut);
    boolean caughtUp = java.util.Objects.equals(history.head(branch).orElse(null), cut);
    return new ChangeFeedOutput(blocks, cursor(branch, kinds, types, ops, end), caughtUp, null);
  }

  /**
   * The first-parent chain from {@code cut} back to {@code after} (exclusive), oldest first; the
   * parentless genesis commit has no diff and is never a block.
   */
  private static List<String> commitsAfter(History history, String branch, String cut, Optional<String> after) {
    List<String> out = new ArrayList<>();
    if (cut == null || after.isPresent() && after.get().equals(cut)) {
      return out;
    }
    java.util.Map<String, String> parents = history.firstParents(branch);
    String c = cut;
    while (c != null && !(after.isPresent() && after.get().equals(c))) {
      if (!parents.containsKey(c)) {
        throw new InvalidRequest("commit " + c + " is not in the history of branch '" + branch + "'");
      }
      String parent = parents.get(c);
      if (parent != null) {
        out.add(c);
      }
      c = parent;
    }
    if (after.isPresent() && c == null) {
      throw new InvalidRequest("commit " + after.get() + " is not on the first-parent history of branch '" + branch
          + "' up to " + cut);
    }
    java.util.Collections.reverse(out);
    return out;
  }
}
