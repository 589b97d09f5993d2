package dev.omnigraph.engine;

import dev.omnigraph.api.Conflict;
import dev.omnigraph.api.InvalidRequest;
import java.util.Collection;
import java.util.regex.Pattern;

/**
 * Graph branch names. A {@code /} becomes a nested directory in Lance's {@code tree/}, so live names
 * must be path-prefix-disjoint: {@code a} and {@code a/b} cannot both be live, which is what keeps a
 * recursive cleanup of one branch's tree from reaching into another's.
 *
 * <p>Everything Lance would refuse, or the store could not hold, is refused here, before the
 * caller takes a gate or touches storage: Lance clones {@code tree/<name>} before it writes the
 * branch's ref, so a name it refuses late leaves a tree behind. Lance (7.0.0, {@code refs.rs})
 * reserves {@code main} in any case, and stores a branch's ref as one object
 * {@code _refs/branches/<name>.json} whose file name spells each {@code /} as {@code %2F}
 * ({@code object_store}'s path-part encoding); a file name component is at most 255 bytes on
 * local file systems (ext4, xfs, APFS), so {@link #encodedLength} must stay within
 * {@link #MAX_ENCODED_LENGTH}.
 */
final class BranchNames {

  static final String MAIN = "main";
  private static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");
  private static final int MAX_LENGTH = 200;
  /** 255 (a file name component) minus {@code ".json"}. */
  static final int MAX_ENCODED_LENGTH = 255 - ".json".length();

  private BranchNames() {}

  /**
   * Rejects a name that Lance or the path layout cannot hold.
   *
   * @throws InvalidRequest naming the rule; nothing has been touched
   */
  static String validate(String name) {
    if (name == null || name.isEmpty()) {
      throw new InvalidRequest("branch name is empty");
    }
    if (name.equalsIgnoreCase(MAIN)) {
      throw new InvalidRequest("branch name '" + name + "' is reserved: the main branch always exists");
    }
    if (name.length() > MAX_LENGTH) {
      throw new InvalidRequest("branch name is longer than " + MAX_LENGTH + " characters");
    }
    for (String segment : name.split("/", -1)) {
      if (!SEGMENT.matcher(segment).matches() || segment.endsWith(".lock") || segment.contains("..")) {
        throw new InvalidRequest("invalid branch name '" + name + "': each '/'-separated segment must start "
            + "with a letter or digit and contain only letters, digits, '.', '_' or '-'");
      }
    }
    int encoded = encodedLength(name);
    if (encoded > MAX_ENCODED_LENGTH) {
      throw new InvalidRequest("branch name is too long for the store: its ref file name spells each '/' as %2F, "
          + "which makes it " + encoded + " of at most " + MAX_ENCODED_LENGTH + " characters");
    }
    return name;
  }

  /** The length of {@code name} in Lance's ref file name: each {@code /} is {@code %2F}. */
  static int encodedLength(String name) {
    int slashes = (int) name.chars().filter(c -> c == '/').count();
    return name.length() + 2 * slashes;
  }

  /** Refuses {@code name} if a live branch is the same, a path ancestor, or a path descendant. */
  static void requireDisjoint(String name, Collection<String> live) {
    for (String other : live) {
      if (other.equals(name)) {
        throw new Conflict("branch '" + name + "' already exists");
      }
      if (other.startsWith(name + "/") || name.startsWith(other + "/")) {
        throw new Conflict("branch '" + name + "' overlaps live branch '" + other
            + "': live branch names must not be path prefixes of each other");
      }
    }
  }
}
