package dev.omnigraph.api;

/**
 * A graph commit id as a caller names it (the store mints ULIDs), parsed once at the edge.
 *
 * <p>A write's condition or target ({@link #of}) refuses only what can name no commit at all: an
 * empty id, and one holding an unpaired UTF-16 surrogate (JSON escapes can spell one; ids are ASCII
 * and such a string has no UTF-8 spelling to look up). An id of the right shape that no commit has
 * is the caller's lookup to refuse (not found, not in a branch's history).
 *
 * <p>A read's commit ({@link #existing}: a snapshot, a commit or its changes) is held as given: the
 * lookup answers an id no commit has, an empty one included, with its own {@link NotFound} (404), as
 * before this type existed. Equal when the spellings are equal.
 */
public final class CommitId {

  private final String value;

  private CommitId(String value) {
    this.value = value;
  }

  /**
   * The commit a write is conditioned on or targets.
   *
   * @throws InvalidRequest for an empty id or an unpaired surrogate
   */
  public static CommitId of(String id) {
    if (id == null || id.isEmpty()) {
      throw new InvalidRequest("a commit id is not empty");
    }
    requireSpellable("commit", id);
    return new CommitId(id);
  }

  /** The commit a read looks up, as given: never refused here (see the class comment). */
  public static CommitId existing(String id) {
    return new CommitId(java.util.Objects.requireNonNull(id, "commit"));
  }

  /** The id as the wire spells it. */
  public String value() {
    return value;
  }

  /**
   * Refuses an id (of request field {@code field}) holding an unpaired UTF-16 surrogate: it names no
   * commit and has no UTF-8 spelling to look up.
   *
   * @throws InvalidRequest naming the field, the surrogate and its position
   */
  public static void requireSpellable(String field, String id) {
    for (int i = 0; i < id.length(); i++) {
      char c = id.charAt(i);
      if (Character.isHighSurrogate(c) && i + 1 < id.length() && Character.isLowSurrogate(id.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        throw new InvalidRequest(String.format("'%s' is not a commit id: unpaired surrogate U+%04X at character %d",
            field, (int) c, i));
      }
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CommitId other && other.value.equals(value);
  }

  @Override
  public int hashCode() {
    return value.hashCode();
  }

  @Override
  public String toString() {
    return value;
  }
}
