package dev.omnigraph.api;

/** The request itself is wrong (bad name, bad schema, unknown type): fix it, do not retry. */
public class InvalidRequest extends OmnigraphException {

  public InvalidRequest(String message) {
    super(message);
  }

  public InvalidRequest(String message, Throwable cause) {
    super(message, cause);
  }

  @Override
  public String code() {
    return "bad_request";
  }
}
