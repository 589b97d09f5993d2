package dev.omnigraph.api;

/**
 * A graph commit id as a caller names it (the store mints ULIDs). Only what can name no commit at
 * all is refused here: an empty id, and one holding an unpaired UTF-16 surrogate (JSON escapes can
 * spell one; ids are ASCII and such a string has no UTF-8 spelling to look up). An id of the right
 * shape that no commit has is the caller's lookup to refuse (not found, not in a branch's history),
 * as before this type existed.
 *
 * @param value the id as the wire spells it
 * @throws InvalidRequest for an empty id or an unpaired surrogate
 */
public record CommitId(String value) {

  public CommitId {
    if (value == null || value.isEmpty()) {
      throw new InvalidRequest("a commit id is not empty");
    }
    requireSpellable("commit", value);
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
  public String toString() {
    return value;
  }
}
