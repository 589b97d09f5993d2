package dev.omnigraph.api;

/**
 * A state conflict that is not one of the specific write outcomes: a graph already initialised, a
 * branch name taken or overlapping a live branch, a branch deleted and recreated under us.
 */
public class Conflict extends OmnigraphException {

  public Conflict(String message) {
    super(message);
  }

  public Conflict(String message, Throwable cause) {
    super(message, cause);
  }

  @Override
  public String code() {
    return "conflict";
  }
}
