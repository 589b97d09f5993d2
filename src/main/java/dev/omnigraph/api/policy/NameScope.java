package dev.omnigraph.api.policy;

import java.util.Collections;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * What an actor's grant of one action covers along a named dimension beyond the reference (the
 * graph's node and edge types, or stored-query names): every name, or exactly the union of the
 * {@code types} / {@code queries} lists of the rules that grant it. Names compare exactly, as the
 * schema (or the query file) spells them.
 *
 * @param names the covered names, or empty: every name
 */
public record NameScope(Optional<Set<String>> names) {

  /** Covers every name: a grant whose rules do not list names (or no policy at all). */
  public static final NameScope ALL = new NameScope(Optional.empty());

  public NameScope {
    names = names.map(n -> Collections.unmodifiableSet(new TreeSet<>(n)));
  }

  /** A scope covering exactly {@code names}. */
  public static NameScope of(Set<String> names) {
    return new NameScope(Optional.of(names));
  }

  /** Whether {@code name} is covered. */
  public boolean covers(String name) {
    return names.map(n -> n.contains(name)).orElse(true);
  }

  /** Whether every name is covered (no rule narrows it). */
  public boolean all() {
    return names.isEmpty();
  }
}
