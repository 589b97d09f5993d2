package dev.omnigraph.api;

/** A named graph, branch or commit does not exist. */
public class NotFound extends OmnigraphException {

  private final String kind;
  private final String name;

  public NotFound(String kind, String name) {
    super(kind + " not found: " + name);
    this.kind = kind;
    this.name = name;
  }

  public NotFound(String kind, String name, String detail) {
    super(kind + " not found: " + name + " (" + detail + ")");
    this.kind = kind;
    this.name = name;
  }

  /** What was looked up: {@code graph}, {@code branch}, {@code commit}. */
  public String kind() {
    return kind;
  }

  public String name() {
    return name;
  }

  @Override
  public String code() {
    return "not_found";
  }
}
