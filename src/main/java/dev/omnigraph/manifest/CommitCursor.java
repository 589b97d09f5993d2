package dev.omnigraph.manifest;

import dev.omnigraph.api.GraphCommit;
import dev.omnigraph.api.InvalidRequest;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Comparator;

/**
 * A keyset position in a commit listing, and the listing's order: newest first by graph-manifest
 * version, then created-at, then commit id (the reference contract's order). A page's
 * {@code next_cursor} is the position of its last commit; the next page is the commits strictly
 * after it in that order, so pages neither repeat nor skip a commit, and a position stays
 * meaningful even when its commit is not in the history read.
 *
 * <p>On the wire the cursor is opaque: base64url (no padding) of
 * {@code manifestVersion:createdAtMicros:commitId}.
 *
 * @param manifestVersion the commit's graph-manifest version
 * @param createdAtMicros the commit's creation time, Unix epoch µs
 * @param commitId the commit's id
 */
public record CommitCursor(long manifestVersion, long createdAtMicros, String commitId) {

  /** The listing order: manifest version, created-at, commit id, each descending. */
  public static final Comparator<GraphCommit> NEWEST_FIRST = (a, b) ->
      compare(a.manifestVersion(), a.createdAtMicros(), a.id(), b.manifestVersion(), b.createdAtMicros(), b.id());

  public CommitCursor {
    if (commitId == null || commitId.isEmpty()) {
      throw new IllegalArgumentException("a cursor names a commit id");
    }
  }

  /** The position of {@code commit}: the next page starts after it. */
  public static CommitCursor of(GraphCommit commit) {
    return new CommitCursor(commit.manifestVersion(), commit.createdAtMicros(), commit.id());
  }

  /** Whether {@code commit} comes strictly after this position in {@link #NEWEST_FIRST} order. */
  public boolean isAfter(GraphCommit commit) {
    return compare(manifestVersion, createdAtMicros, commitId,
        commit.manifestVersion(), commit.createdAtMicros(), commit.id()) < 0;
  }

  /** The opaque wire form. */
  public String encode() {
    String plain = manifestVersion + ":" + createdAtMicros + ":" + commitId;
    return Base64.getUrlEncoder().withoutPadding().encodeToString(plain.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Reads a cursor {@link #encode} wrote.
   *
   * @throws InvalidRequest naming the {@code cursor} parameter when it is not one
   */
  public static CommitCursor decode(String cursor) {
    if (cursor == null || cursor.isEmpty() || cursor.length() > 256) {
      throw malformed();
    }
    String plain;
    try {
      plain = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw malformed();
    }
    String[] parts = plain.split(":", 3);
    if (parts.length != 3 || parts[2].isEmpty() || !parts[2].chars().allMatch(CommitCursor::idChar)) {
      throw malformed();
    }
    try {
      long version = Long.parseLong(parts[0]);
      long createdAt = Long.parseLong(parts[1]);
      if (version < 0 || !parts[0].equals(Long.toString(version)) || !parts[1].equals(Long.toString(createdAt))) {
        throw malformed();
      }
      return new CommitCursor(version, createdAt, parts[2]);
    } catch (NumberFormatException e) {
      throw malformed();
    }
  }

  private static boolean idChar(int c) {
    return c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '-' || c == '_';
  }

  private static InvalidRequest malformed() {
    return new InvalidRequest("'cursor' is not a commit-list cursor: pass the next_cursor of the previous page"
        + " unchanged, or omit it for the first page");
  }

  /** Negative when position a comes before position b in newest-first order. */
  private static int compare(long versionA, long createdA, String idA, long versionB, long createdB, String idB) {
    int c = Long.compare(versionB, versionA);
    if (c != 0) {
      return c;
    }
    c = Long.compare(createdB, createdA);
    return c != 0 ? c : idB.compareTo(idA);
  }
}
