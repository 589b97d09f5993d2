package dev.omnigraph.api;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * A {@link Forbidden} for a type: the caller holds {@code action} on the branch, but its policy limits
 * the action to some node and edge types ({@code types:}, beyond the reference) and the request
 * touches {@code type}, outside them. Raised before anything is prepared (a query or mutation from its
 * checked form; a load at the first line of such a type, with nothing staged), so nothing was
 * written. HTTP 403 {@code forbidden}; CLI exit 1.
 */
public final class TypeForbidden extends Forbidden {

  private final String type;
  private final OptionalLong line;

  public TypeForbidden(String message, String action, Optional<String> branch, String type, OptionalLong line) {
    super(message, action, branch, Optional.empty());
    this.type = type;
    this.line = line;
  }

  /** The first type the request touches outside the caller's scope (the schema's spelling). */
  public String type() {
    return type;
  }

  /** For a load, the 1-based input line of that type's first row. */
  public OptionalLong line() {
    return line;
  }
}
