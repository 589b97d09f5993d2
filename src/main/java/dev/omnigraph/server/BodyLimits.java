package dev.omnigraph.server;

import dev.omnigraph.api.BodyTooLarge;
import dev.omnigraph.api.OmnigraphException;
import dev.omnigraph.api.ResourceLimitExceeded;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.RoutingContext;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Set;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * The reference's request-body limits, on every route that takes a body: a graph-batch NDJSON load
 * over {@link #NDJSON_LIMIT} is 413 {@code resource_limit} {@code graph_batch_request_bytes}; any
 * Blob cell write's body over {@link #BLOB_LIMIT} is 413 {@code resource_limit}
 * {@code blob_payload_bytes} (ours); any other body over {@link #JSON_LIMIT} is 413
 * {@code bad_request} ({@link BodyTooLarge}). A declared
 * {@code Content-Length} over the limit is refused before the body is read; every body, with a
 * length or without one (chunked), is also counted as it is read ({@link #counted}) and refused the
 * moment it passes the limit, so no more than the limit is ever buffered. Before the counting, a
 * chunked body was bounded only by the server's 512 MiB cap: one such body held the JVM in GC for
 * minutes (docs/http-api.md).
 *
 * <p>After a refusal the connection ends once the 413 is written (HTTP/1.x): the rest of the body is
 * never parsed, so the connection could carry nothing else. It ends with a lingering close
 * ({@link LingeringClose}): what the client still sends is dropped, never held, for a bounded time
 * and size, so a client that writes its whole body before it reads gets the 413, not a reset.
 */
class BodyLimits {

  /** Reference {@code DEFAULT_REQUEST_BODY_LIMIT_BYTES}: every JSON body. */
  static final long JSON_LIMIT = 1_048_576;
  /** Reference {@code INGEST_REQUEST_BODY_LIMIT_BYTES}: one NDJSON graph-batch load. */
  static final long NDJSON_LIMIT = 32L * 1024 * 1024;
  static final String NDJSON_RESOURCE = "graph_batch_request_bytes";

  /**
   * A Blob cell write's raw body ({@code PUT /graphs/{id}/blob}, ours): the Blob rule's 32 MiB per
   * operation, refused as 413 {@code resource_limit} {@code blob_payload_bytes}, not the JSON limit.
   */
  static final long BLOB_LIMIT = dev.omnigraph.api.BlobLimits.MAX_OPERATION_BYTES;

  /** Which limit a body gets. */
  enum Kind {
    JSON(JSON_LIMIT), NDJSON(NDJSON_LIMIT), BLOB(BLOB_LIMIT);

    final long limit;

    Kind(long limit) {
      this.limit = limit;
    }

    static Kind of(String method, String path) {
      if (isNdjsonLoad(path)) {
        return NDJSON;
      }
      return HttpMethod.PUT.equals(method) && isBlobWrite(path) ? BLOB : JSON;
    }
  }

  /** The methods whose bodies a route reads; the others' are never read, so never counted. */
  private static final Set<String> BODY_METHODS = Set.of(HttpMethod.POST, HttpMethod.PUT, HttpMethod.PATCH);

  @ServerRequestFilter
  void limit(ContainerRequestContext request, RoutingContext http) {
    Kind kind = Kind.of(request.getMethod(), request.getUriInfo().getPath());
    // From Vert.x's headers: the JAX-RS view (getHeaderString) builds a header map for the request first.
    long declared = declaredLength(http.request().getHeader(HttpHeaders.CONTENT_LENGTH));
    if (declared > kind.limit) {
      closeAfterAnswer(http);
      throw tooLarge(kind, declared, true);
    }
    if (BODY_METHODS.contains(request.getMethod())) {
      request.setEntityStream(counted(request.getEntityStream(), kind, () -> closeAfterAnswer(http)));
    }
  }

  /** The declared length, or -1 without one; a malformed one is the HTTP layer's to refuse. */
  private static long declaredLength(String header) {
    if (header == null || header.isBlank()) {
      return -1;
    }
    try {
      return Long.parseLong(header.trim());
    } catch (NumberFormatException e) {
      return -1;
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

  /** A Blob cell's {@code PUT}: {@code /graphs/{id}/blob}. */
  static boolean isBlobWrite(String path) {
    return path.startsWith("/graphs/") && path.endsWith("/blob");
  }

  private static OmnigraphException tooLarge(Kind kind, long actual, boolean declared) {
    if (kind == Kind.NDJSON) {
      return new ResourceLimitExceeded(NDJSON_RESOURCE, NDJSON_LIMIT, actual, "split the load into smaller requests");
    }
    if (kind == Kind.BLOB) {
      return new ResourceLimitExceeded(dev.omnigraph.api.BlobLimits.PAYLOAD_RESOURCE, BLOB_LIMIT, actual);
    }
    return declared ? new BodyTooLarge(JSON_LIMIT, actual) : BodyTooLarge.whileReading(JSON_LIMIT, actual);
  }

  /** Lets the 413 be written, then ends the connection that still owes the unread rest of the body. */
  private static void closeAfterAnswer(RoutingContext http) {
    if (http.request().version() == HttpVersion.HTTP_2) {
      return; // one stream of a shared connection: Vert.x resets the stream, the connection stays
    }
    http.response().putHeader(io.vertx.core.http.HttpHeaders.CONNECTION, io.vertx.core.http.HttpHeaders.CLOSE);
    http.addEndHandler(done -> LingeringClose.after(http.request()));
  }

  /**
   * {@code body} counted as it is read: past the route's limit, the same 413 as a declared length
   * over it, thrown from the read itself so the reader (Jackson, the NDJSON loader) stops there, before
   * anything is planned or written. A typed outcome a JSON reader wraps is unwrapped by
   * {@link ErrorMapper}.
   */
  static InputStream counted(InputStream body, Kind kind, Runnable onRefusal) {
    long limit = kind.limit;
    return new FilterInputStream(body) {
      private long read;
      private boolean refused;

      @Override
      public int read() throws IOException {
        refuseAgain();
        int b = super.read();
        if (b >= 0) {
          count(1);
        }
        return b;
      }

      @Override
      public int read(byte[] buf, int off, int len) throws IOException {
        refuseAgain();
        // Never more than one byte past the limit in one read: the overflow is seen at once.
        int n = super.read(buf, off, (int) Math.min(len, limit + 1 - read));
        if (n > 0) {
          count(n);
        }
        return n;
      }

      @Override
      public long skip(long n) throws IOException {
        refuseAgain();
        long skipped = super.skip(Math.min(n, limit + 1 - read));
        count(skipped);
        return skipped;
      }

      @Override
      public void close() throws IOException {
        if (!refused) {
          super.close(); // closing the request's stream reads it to its end: never after a refusal
        }
      }

      private void count(long n) {
        read += n;
        if (read > limit) {
          refused = true;
          onRefusal.run();
          throw tooLarge(kind, read, false);
        }
      }

      private void refuseAgain() {
        if (refused) {
          throw tooLarge(kind, read, false);
        }
      }
    };
  }
}
