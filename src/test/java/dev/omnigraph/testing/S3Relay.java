package dev.omnigraph.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The one way the loopback S3 fronts of the tests (ConditionalWriteSerializer, the counting front,
 * the simulation's SimS3) pass a request on and relay its answer: hop-by-hop headers dropped both
 * ways, except a HEAD answer's Content-Length, which Lance needs (a HEAD relayed with length 0 makes
 * its open-at-version fail).
 */
public final class S3Relay {
  static {
    // The JDK server writes a response's headers and body separately and leaves Nagle's algorithm
    // on, so every response through a front waited out the client's delayed ACK (~40 ms on Linux):
    // a GET took 55-70 ms instead of 9-16 ms. Read once, when the server classes load, so it is set
    // here, before any front creates its server.
    System.setProperty("sun.net.httpserver.nodelay", "true");
    // With 200 idle connections open (its default cap) the JDK server closes each further one right
    // after answering on it, with no "Connection: close": the client's next request on that pooled
    // connection fails. A PUT whose body cannot be sent is not retried (conditional puts get one
    // attempt), so a crash child's sidecar claim failed whenever the test JVM's Lance pools held 200
    // idle connections to the front (measured: 201 after RootCopyS3Test). No real S3 closes a kept-
    // alive connection it has just answered on, so the fronts keep every idle connection.
    System.setProperty("sun.net.httpserver.maxIdleConnections", "1000000");
  }

  private static final Set<String> HOP_BY_HOP = Set.of(
      "connection", "content-length", "expect", "host", "upgrade", "transfer-encoding", "keep-alive",
      "proxy-connection", "proxy-authenticate", "proxy-authorization", "te", "trailer", "http2-settings");

  private S3Relay() {}

  /** The upstream client of a front: HTTP/1.1, 5 s to connect, redirects passed back, not followed. */
  public static HttpClient client() {
    return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5)).followRedirects(HttpClient.Redirect.NEVER).build();
  }

  /**
   * A started front on {@code host:port} (0: any free port) that runs {@code handler} on daemon
   * threads named {@code threadName}; {@link #stop} stops it.
   */
  public static HttpServer serve(String host, int port, int backlog, String threadName, HttpHandler handler)
      throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(host, port), backlog);
    server.setExecutor(Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, threadName);
      t.setDaemon(true);
      return t;
    }));
    server.createContext("/", handler);
    server.start();
    return server;
  }

  /** Closes a front made by {@link #serve}: its port and every connection through it. */
  public static void stop(HttpServer server) {
    server.stop(0);
    ((ExecutorService) server.getExecutor()).shutdownNow();
  }

  /** The upstream request for {@code exchange}, whose body the caller has read into {@code body}. */
  public static HttpRequest.Builder request(String upstream, HttpExchange exchange, byte[] body) {
    String method = exchange.getRequestMethod();
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(upstream + exchange.getRequestURI()))
        .timeout(Duration.ofSeconds(60))
        .method(method, body.length == 0 && !method.equals("PUT") && !method.equals("POST")
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofByteArray(body));
    exchange.getRequestHeaders().forEach((name, values) -> {
      if (!HOP_BY_HOP.contains(name.toLowerCase(Locale.ROOT))) {
        values.forEach(v -> request.header(name, v));
      }
    });
    return request;
  }

  /** Answers {@code exchange} with {@code response}'s status and headers and the body {@code out}. */
  public static void answer(HttpExchange exchange, HttpResponse<byte[]> response, byte[] out) throws IOException {
    String method = exchange.getRequestMethod();
    response.headers().map().forEach((name, values) -> {
      String lower = name.toLowerCase(Locale.ROOT);
      if (!lower.equals(":status")
          && (!HOP_BY_HOP.contains(lower) || (lower.equals("content-length") && method.equals("HEAD")))) {
        exchange.getResponseHeaders().put(name, values);
      }
    });
    int status = response.statusCode();
    if (method.equals("HEAD") || status == 204 || status == 304 || out.length == 0) {
      exchange.sendResponseHeaders(status, -1);
    } else {
      exchange.sendResponseHeaders(status, out.length);
      try (OutputStream os = exchange.getResponseBody()) {
        os.write(out);
      }
    }
  }
}
