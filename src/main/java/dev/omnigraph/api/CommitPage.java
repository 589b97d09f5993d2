package dev.omnigraph.api;

import java.util.Optional;

/**
 * Which page of a commit listing to return: at most {@code limit} commits, newest first, starting
 * after the position {@code cursor} names (absent: the newest commit).
 *
 * <p>The cursor is opaque: pass the {@code next_cursor} of the previous page back unchanged. It is
 * checked where it is used (the engine), so a malformed one is an {@link InvalidRequest} there.
 *
 * @param limit 1 to {@value #MAX_LIMIT}
 * @param cursor the previous page's {@code next_cursor}; empty for the first page
 * @throws InvalidRequest for a limit outside 1 to {@value #MAX_LIMIT}
 */
public record CommitPage(int limit, Optional<String> cursor) {

  /** The page size when the caller names none. */
  public static final int DEFAULT_LIMIT = 100;

  /** The largest page size a caller may ask for. */
  public static final int MAX_LIMIT = 1000;

  /** The first page at the default size. */
  public static final CommitPage FIRST = new CommitPage(DEFAULT_LIMIT, Optional.empty());

  public CommitPage {
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new InvalidRequest("'limit' must be between 1 and " + MAX_LIMIT + ", got " + limit);
    }
    cursor = cursor == null ? Optional.empty() : cursor;
  }

  /** The first page of at most {@code limit} commits. */
  public static CommitPage first(int limit) {
    return new CommitPage(limit, Optional.empty());
  }

  /**
   * A page from request parameters as they arrive: a null or blank {@code limit} is the default, a
   * null or blank {@code cursor} the first page.
   *
   * @throws InvalidRequest for a limit that is not an integer from 1 to {@value #MAX_LIMIT}
   */
  public static CommitPage parse(String limit, String cursor) {
    int n = DEFAULT_LIMIT;
    if (limit != null && !limit.isBlank()) {
      try {
        n = Integer.parseInt(limit.strip());
      } catch (NumberFormatException e) {
        throw new InvalidRequest("'limit' must be an integer between 1 and " + MAX_LIMIT + ", got '" + limit + "'");
      }
    }
    return new CommitPage(n, cursor == null || cursor.isBlank() ? Optional.empty() : Optional.of(cursor.strip()));
  }
}
