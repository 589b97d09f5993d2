package dev.omnigraph.api;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Which page of a commit's entity changes to return, and which changes: at most {@code limit}
 * changes after the position {@code pageToken} names, restricted to the given kinds, type names and
 * operations (each empty: all).
 *
 * @param limit 1 to {@value #MAX_LIMIT}
 * @param pageToken the previous page's {@code next_page_token}; opaque, checked by the engine
 * @throws InvalidRequest for a limit below 1 or a kind that is not {@code node} / {@code edge}
 * @throws ResourceLimitExceeded for a limit above {@value #MAX_LIMIT} (reference: 413)
 */
public record ChangesPage(int limit, Optional<String> pageToken, Set<String> kinds, Set<String> types,
    Set<ChangeOp> ops) {

  /** Changes per page when the caller names none (reference {@code COMMIT_CHANGES_DEFAULT_CHANGES}). */
  public static final int DEFAULT_LIMIT = 1_000;

  /** The public ceiling (reference {@code COMMIT_CHANGES_MAX_CHANGES}). */
  public static final int MAX_LIMIT = 8_192;

  public ChangesPage {
    if (limit < 1) {
      throw new InvalidRequest("'limit' must be at least 1, got " + limit);
    }
    if (limit > MAX_LIMIT) {
      throw new ResourceLimitExceeded("commit_changes_limit", MAX_LIMIT, limit,
          "ask for at most " + MAX_LIMIT + " changes a page and follow next_page_token for the rest");
    }
    pageToken = pageToken == null ? Optional.empty() : pageToken;
    for (String k : kinds) {
      if (!k.equals("node") && !k.equals("edge")) {
        throw new InvalidRequest("'kind' must be node or edge, got '" + k + "'");
      }
    }
    kinds = Set.copyOf(kinds);
    types = Set.copyOf(types);
    ops = Set.copyOf(ops);
  }

  /** The first page of every change at the default size. */
  public static final ChangesPage FIRST = new ChangesPage(DEFAULT_LIMIT, Optional.empty(), Set.of(), Set.of(),
      Set.of());

  /**
   * A page from request parameters as they arrive (null or blank: the default / the first page).
   *
   * @throws InvalidRequest for a limit that is not an integer, or a bad kind or op
   */
  public static ChangesPage parse(String limit, String pageToken, List<String> kinds, List<String> types,
      List<String> ops) {
    int n = DEFAULT_LIMIT;
    if (limit != null && !limit.isBlank()) {
      try {
        n = Integer.parseInt(limit.strip());
      } catch (NumberFormatException e) {
        throw new InvalidRequest("'limit' must be an integer from 1 to " + MAX_LIMIT + ", got '" + limit + "'");
      }
    }
    return new ChangesPage(n, pageToken == null || pageToken.isBlank() ? Optional.empty()
        : Optional.of(pageToken.strip()), kinds == null ? Set.of() : Set.copyOf(kinds),
        types == null ? Set.of() : Set.copyOf(types),
        ops == null ? Set.of() : ops.stream().map(ChangeOp::parse).collect(java.util.stream.Collectors.toSet()));
  }

  /** The same request continued after {@code token}. */
  public ChangesPage next(String token) {
    return new ChangesPage(limit, Optional.of(token), kinds, types, ops);
  }
}
