package dev.omnigraph.query;

import java.util.List;

/** A {@code .gq} file was asked for a declaration it does not hold; the message lists the ones it does. */
public final class UnknownQueryException extends QueryException {

  private static final long serialVersionUID = 1L;

  private final String name;
  private final List<String> available;

  /**
   * @param name the name asked for
   * @param available the declarations the file holds, in file order
   */
  public UnknownQueryException(String name, List<String> available) {
    super("no query named '" + name + "'" + Hints.hint(name, available) + "; "
        + (available.isEmpty() ? "the file declares no queries" : "the file declares " + String.join(", ", available)));
    this.name = name;
    this.available = List.copyOf(available);
  }

  /** The name asked for. */
  public String name() {
    return name;
  }

  /** The declarations the file holds, in file order. */
  public List<String> available() {
    return available;
  }
}
