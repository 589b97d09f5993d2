package dev.omnigraph.server;

import dev.omnigraph.api.BodyTooLarge;
import dev.omnigraph.api.ResourceLimitExceeded;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * The reference's request-body limits, decided from {@code Content-Length} in a filter, i.e. before
 * the body is read: a graph-batch NDJSON load over {@link #NDJSON_LIMIT} is 413 {@code resource_limit}
 * {@code graph_batch_request_bytes}; any other body over {@link #JSON_LIMIT} is 413 {@code bad_request}.
 * A load sent without a length (chunked) is counted as it is read ({@link #ndjson}).
 */
class BodyLimits {

  /** Reference {@code DEFAULT_REQUEST_BODY_LIMIT_BYTES}: every JSON body. */
  static final long JSON_LIMIT = 1_048_576;
  /** Reference {@code INGEST_REQUEST_BODY_LIMIT_BYTES}: one NDJSON graph-batch load. */
  static final long NDJSON_LIMIT = 32L * 1024 * 1024;
  static final String NDJSON_RESOURCE = "graph_batch_request_bytes";

  @ServerRequestFilter
  void limit(ContainerRequestContext request) {
    String length = request.getHeaderString(HttpHeaders.CONTENT_LENGTH);
    if (length == null || length.isBlank()) {
      return;
    }
    long actual;
    try {
      actual = Long.parseLong(length.trim());
    } catch (NumberFormatException e) {
      return; // the HTTP layer refuses a malformed length itself
    }
    if (isNdjsonLoad(request.getUriInfo().getPath())) {
      if (actual > NDJSON_LIMIT) {
        throw ndjsonTooLarge(actual);
      }
    } else if (actual > JSON_LIMIT) {
      throw new BodyTooLarge(JSON_LIMIT, actual);
    }
  }

  /**
   * A graph-batch load: {@code load/ndjson}, and its JSON envelopes {@code load} and {@code ingest}, whose
   * {@code data} carries the same NDJSON and so gets the same limit (the reference's ingest limit).
   */
  static boolean isNdjsonLoad(String path) {
    return path.startsWith("/graphs/")
        && (path.endsWith("/load/ndjson") || path.endsWith("/load") || path.endsWith("/ingest"));
  }

  static ResourceLimitExceeded ndjsonTooLarge(long actual) {
    return new ResourceLimitExceeded(NDJSON_RESOURCE, NDJSON_LIMIT, actual,
        "split the load into smaller requests");
  }

  /**
   * {@code body} counted as it is read: past {@link #NDJSON_LIMIT} bytes, the same 413 as a declared
   * length over it, so a chunked upload cannot get past the limit a {@code Content-Length} one meets.
   * Thrown before the load plans anything, so nothing is written.
   */
  static InputStream ndjson(InputStream body) {
    return new FilterInputStream(body) {
      private long read;

      @Override
      public int read() throws IOException {
        int b = super.read();
        if (b >= 0) {
          count(1);
        }
        return b;
      }

      @Override
      public int read(byte[] buf, int off, int len) throws IOException {
        int n = super.read(buf, off, len);
        if (n > 0) {
          count(n);
        }
        return n;
      }

      private void count(int n) {
        read += n;
        if (read > NDJSON_LIMIT) {
          throw ndjsonTooLarge(read);
        }
      }
    };
  }
}
