package dev.omnigraph.table;

import dev.omnigraph.api.ExternalBlobUnreadable;
import dev.omnigraph.storage.S3Objects;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.api.storage.StorageException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Reads admitted external Blob sources where a write must: a size probe (one HEAD) before any
 * payload, then the copy that materialises the cell. {@code s3://} goes through the AWS SDK with the
 * graph's S3 settings (endpoint, region, credentials: {@link S3Objects}); {@code https://} and
 * {@code http://} through the JDK {@link HttpClient}, redirects not followed (a source cannot send the
 * server somewhere the allow list did not admit). At most {@link #MAX_IN_FLIGHT} requests run at
 * once per call. Every failure is an {@link ExternalBlobUnreadable} (424), never a generic 500.
 */
public final class ExternalSources implements AutoCloseable {

  /** Probes (and copies) in flight at once, per operation. */
  public static final int MAX_IN_FLIGHT = 8;

  private final S3Objects s3;
  private volatile HttpClient http;

  /**
   * @param s3Settings whose endpoint, region, path style and credentials reach {@code s3://}
   *     sources (the graph's own config on S3, the environment's otherwise)
   */
  public ExternalSources(StorageConfig s3Settings) {
    this.s3 = new S3Objects(s3Settings);
  }

  /**
   * The size of each source (normalised URIs, each once), probed with at most {@link #MAX_IN_FLIGHT}
   * HEADs in flight, in the given order.
   */
  public Map<String, Long> sizes(Collection<String> uris) {
    return all(uris, this::size);
  }

  /** The bytes of each source, {@code expected} bytes long as its probe said; same bound. */
  public Map<String, byte[]> read(Map<String, Long> expected) {
    return all(expected.keySet(), uri -> {
      byte[] bytes = read(uri, expected.get(uri));
      if (bytes.length != expected.get(uri)) {
        throw new ExternalBlobUnreadable(uri, "it changed size between the probe (" + expected.get(uri)
            + " bytes) and the read (" + bytes.length + " bytes)");
      }
      return bytes;
    });
  }

  private interface Call<T> {
    T apply(String uri);
  }

  private static <T> Map<String, T> all(Collection<String> uris, Call<T> call) {
    Map<String, T> out = new LinkedHashMap<>();
    if (uris.isEmpty()) {
      return out;
    }
    ExecutorService pool = Executors.newFixedThreadPool(Math.min(MAX_IN_FLIGHT, uris.size()), r -> {
      Thread t = new Thread(r, "external-blob-source");
      t.setDaemon(true);
      return t;
    });
    try {
      List<Future<T>> futures = new ArrayList<>();
      for (String uri : uris) {
        futures.add(pool.submit(() -> call.apply(uri)));
      }
      int i = 0;
      for (String uri : uris) {
        try {
          out.put(uri, futures.get(i++).get());
        } catch (ExecutionException e) {
          if (e.getCause() instanceof RuntimeException r) {
            throw r;
          }
          throw new ExternalBlobUnreadable(uri, String.valueOf(e.getCause()));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new ExternalBlobUnreadable(uri, "interrupted");
        }
      }
      return out;
    } finally {
      pool.shutdownNow();
    }
  }

  long size(String uri) {
    URI u = URI.create(uri);
    // Counted when sent, answered or not: the accounting is of requests made.
    dev.omnigraph.storage.StoreRequests.record(dev.omnigraph.storage.StoreRequests.Op.HEAD,
        dev.omnigraph.storage.StoreRequests.Kind.EXTERNAL, 0);
    if (u.getScheme().equals("s3")) {
      try {
        return s3.size(u.getHost(), objectKey(u));
      } catch (StorageException e) {
        throw new ExternalBlobUnreadable(uri, reason(e));
      }
    }
    HttpResponse<Void> r = send(uri, HttpRequest.newBuilder(u).method("HEAD", HttpRequest.BodyPublishers.noBody()),
        HttpResponse.BodyHandlers.discarding());
    return r.headers().firstValueAsLong("Content-Length")
        .orElseThrow(() -> new ExternalBlobUnreadable(uri, "the HEAD answer has no Content-Length"));
  }

  byte[] read(String uri, long expected) {
    byte[] bytes = null;
    try {
      bytes = fetch(uri, expected);
      return bytes;
    } finally {
      dev.omnigraph.storage.StoreRequests.record(dev.omnigraph.storage.StoreRequests.Op.GET,
          dev.omnigraph.storage.StoreRequests.Kind.EXTERNAL, bytes == null ? 0 : bytes.length);
    }
  }

  private byte[] fetch(String uri, long expected) {
    URI u = URI.create(uri);
    if (u.getScheme().equals("s3")) {
      try {
        return s3.read(u.getHost(), objectKey(u));
      } catch (StorageException e) {
        throw new ExternalBlobUnreadable(uri, reason(e));
      }
    }
    HttpResponse<InputStream> r = send(uri, HttpRequest.newBuilder(u).GET(), HttpResponse.BodyHandlers.ofInputStream());
    try (InputStream in = r.body()) {
      // One byte past the probed size is enough to know it changed; never more is held.
      return in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, expected + 1));
    } catch (IOException e) {
      throw new ExternalBlobUnreadable(uri, "the body could not be read: " + e.getMessage());
    }
  }

  private <T> HttpResponse<T> send(String uri, HttpRequest.Builder request, HttpResponse.BodyHandler<T> body) {
    HttpResponse<T> r;
    try {
      r = client().send(request.timeout(Duration.ofSeconds(60)).build(), body);
    } catch (IOException e) {
      throw new ExternalBlobUnreadable(uri, "no answer: " + e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ExternalBlobUnreadable(uri, "interrupted");
    }
    if (r.statusCode() != 200) {
      if (r.body() instanceof InputStream in) {
        try {
          in.close();
        } catch (IOException ignored) {
          // the status is the answer; the unread body is released either way
        }
      }
      throw new ExternalBlobUnreadable(uri, "the source answered HTTP " + r.statusCode());
    }
    return r;
  }

  private HttpClient client() {
    HttpClient c = http;
    if (c == null) {
      synchronized (this) {
        if (http == null) {
          http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER)
              .connectTimeout(Duration.ofSeconds(10)).build();
        }
        c = http;
      }
    }
    return c;
  }

  /** The object key of an {@code s3://bucket/key} URI: its path without the leading slash, decoded. */
  private static String objectKey(URI u) {
    return u.getPath().substring(1);
  }

  private static String reason(StorageException e) {
    return switch (e.kind()) {
      case NOT_FOUND -> "no such object";
      case CONFIGURATION -> "access refused or the bucket is missing";
      case TRANSIENT -> "the store did not answer in time";
      default -> "the store refused the request";
    };
  }

  @Override
  public void close() {
    s3.close();
  }
}
