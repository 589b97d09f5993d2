package dev.omnigraph.api;

/**
 * An external Blob URI passed the graph's allow list but its source could not be probed or read
 * where the write must read it (the size probe, or the copy that materialises it): HTTP 424 with the
 * reference's {@code external_blob_source} detail. Nothing was staged. Reads never raise it: an
 * external cell is answered with a redirect, never dereferenced (docs/http-api.md, "Blob reads").
 */
public final class ExternalBlobUnreadable extends OmnigraphException {

  private final String uri;
  private final String reason;

  public ExternalBlobUnreadable(String uri, String reason) {
    super("external Blob source " + uri + " cannot be read: " + reason);
    this.uri = uri;
    this.reason = reason;
  }

  /** The normalised, credential-free URI (the allow list refuses user info, so none is stored). */
  public String uri() {
    return uri;
  }

  /** What the source answered, in words. */
  public String reason() {
    return reason;
  }

  /** No wire code: the reference keeps {@code ErrorCode} closed; the detail is the discriminator. */
  @Override
  public String code() {
    return null;
  }
}
