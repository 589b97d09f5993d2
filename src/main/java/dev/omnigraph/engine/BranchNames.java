package dev.omnigraph.engine;

import dev.omnigraph.api.BranchName;
import dev.omnigraph.api.Conflict;
import java.util.Collection;

/**
 * Graph branch names: what {@link BranchName} checks of one name, plus what only the engine can
 * check against the live branches. Live names must be path-prefix-disjoint: {@code a} and
 * {@code a/b} cannot both be live, which is what keeps a recursive cleanup of one branch's tree from
 * reaching into another's.
 */
final class BranchNames {

  static final String MAIN = BranchName.MAIN.value();

  private BranchNames() {}

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
