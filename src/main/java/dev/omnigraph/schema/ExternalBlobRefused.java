package dev.omnigraph.schema;

import dev.omnigraph.api.InvalidRequest;

/**
 * A Blob input that is not {@code base64:} names an external URI; this build stores managed bytes
 * only, so it refuses every external URI before anything is staged (a 400, never a commit).
 */
public final class ExternalBlobRefused extends InvalidRequest {

  private final String uri;

  public ExternalBlobRefused(String uri) {
    super("external Blob URIs are not accepted: write managed bytes as 'base64:<payload>' (got a value"
        + " starting '" + uri.substring(0, Math.min(uri.length(), 16)) + "')");
    this.uri = uri;
  }

  /** The refused input. */
  public String uri() {
    return uri;
  }
}
