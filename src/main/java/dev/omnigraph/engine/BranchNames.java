package dev.omnigraph.engine;

import dev.omnigraph.api.Conflict;
import dev.omnigraph.api.InvalidRequest;
import java.util.Collection;
import java.util.regex.Pattern;

/**
 * Graph branch names. A {@code /} becomes a nested directory in Lance's {@code tree/}, so live names
 * must be path-prefix-disjoint: {@code a} and {@code a/b} cannot both be live, which is what keeps a
 * recursive cleanup of one branch's tree from reaching into another's.
 */
final class BranchNames {

  static final String MAIN = "main";
  private static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");
  private static final int MAX_LENGTH = 200;

  private BranchNames() {}

  /** Rejects a name that Lance or the path layout cannot hold. */
  static String validate(String name) {
    if (name == null || name.isEmpty()) {
      throw new InvalidRequest("branch name is empty");
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
    return name;
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
