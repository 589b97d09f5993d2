package dev.omnigraph.engine;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A tiny local HTTP source of external Blobs: objects by path, each with its bytes, or with only a
 * size its HEAD claims (so a 32 MiB test needs no 32 MiB). Counts HEADs, GETs and the most HEADs
 * in flight at once; each HEAD waits {@code headMillis} so concurrent probes overlap.
 */
final class ExternalSourceServer implements AutoCloseable {

  private final HttpServer server;
  private final Map<String, byte[]> objects = new ConcurrentHashMap<>();
  private final Map<String, Long> claimed = new ConcurrentHashMap<>();
  final AtomicInteger heads = new AtomicInteger();
  final AtomicInteger gets = new AtomicInteger();
  final AtomicInteger maxInFlight = new AtomicInteger();
  private final AtomicInteger inFlight = new AtomicInteger();
  volatile long headMillis;

  ExternalSourceServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.setExecutor(Executors.newFixedThreadPool(32));
    server.createContext("/", exchange -> {
      String path = exchange.getRequestURI().getRawPath();
      boolean head = exchange.getRequestMethod().equals("HEAD");
      try (exchange) {
        if (head) {
          heads.incrementAndGet();
          maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
          try {
            Thread.sleep(headMillis);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          } finally {
            inFlight.decrementAndGet();
          }
        } else {
          gets.incrementAndGet();
        }
        byte[] bytes = objects.get(path);
        Long size = bytes != null ? Long.valueOf(bytes.length) : claimed.get(path);
        if (size == null) {
          exchange.sendResponseHeaders(404, -1);
          return;
        }
        if (head) {
          exchange.getResponseHeaders().set("Content-Length", Long.toString(size));
          exchange.sendResponseHeaders(200, -1);
          return;
        }
        exchange.sendResponseHeaders(200, bytes.length == 0 ? -1 : bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(bytes);
        }
      }
    });
    server.start();
  }

  /** {@code http://127.0.0.1:<port>} */
  String base() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** Serves {@code bytes} at {@code path}; returns its URI. */
  String put(String path, byte[] bytes) {
    objects.put(path, bytes);
    return base() + path;
  }

  /** A HEAD at {@code path} claims {@code size} bytes; there is no body to GET. */
  String claim(String path, long size) {
    claimed.put(path, size);
    return base() + path;
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
