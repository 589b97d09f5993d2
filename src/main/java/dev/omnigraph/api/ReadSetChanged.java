package dev.omnigraph.api;

import java.util.Optional;

/**
 * The authority a write was prepared against changed before any effect (update, delete and
 * overwrite are not silently re-planned). Effect-free; the caller re-reads and decides again.
 */
public final class ReadSetChanged extends OmnigraphException {

  private final String member;
  private final Optional<String> expected;
  private final Optional<String> actual;

  public ReadSetChanged(String member, Optional<String> expected, Optional<String> actual) {
    super("read set changed: " + member + " was " + expected.orElse("<absent>") + " when prepared, now "
        + actual.orElse("<absent>"));
    this.member = member;
    this.expected = expected;
    this.actual = actual;
  }

  /** What moved, e.g. {@code graph_head:main} or {@code table:node:Person}. */
  public String member() {
    return member;
  }

  public Optional<String> expected() {
    return expected;
  }

  public Optional<String> actual() {
    return actual;
  }

  @Override
  public String code() {
    return "conflict";
  }
}
