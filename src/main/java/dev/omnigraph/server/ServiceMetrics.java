package dev.omnigraph.server;

import dev.omnigraph.api.recovery.Outcome;
import dev.omnigraph.api.RecoveryRequired;
import dev.omnigraph.engine.ErrorKind;
import dev.omnigraph.api.policy.PolicyAction;
import dev.omnigraph.api.policy.PolicyDecision;
import dev.omnigraph.engine.StoreCounters;
import dev.omnigraph.api.UncoveredDrift;
import dev.omnigraph.api.WriteResult;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.Timer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The service's Micrometer meters (Prometheus names in {@code docs/http-api.md}):
 * <ul>
 *   <li>{@code omnigraph.writes} (graph, writer, outcome): write attempts by outcome, {@code ok} or
 *       the {@link ErrorKind} label ({@code key_conflict}, {@code read_set_changed}, …);
 *   <li>{@code omnigraph.write.duration} (graph, writer): latency of every attempt, histogram;
 *   <li>{@code omnigraph.write.reprepares} (graph, writer): effect-free reprepares of landed writes;
 *   <li>{@code omnigraph.publish.retries} (graph, writer): manifest CAS retries of landed writes;
 *   <li>{@code omnigraph.recovery.pending.sidecars} (graph): sidecars at the last listing;
 *   <li>{@code omnigraph.recovery.outcomes} (graph, verdict, action): every settled or refused sidecar;
 *   <li>{@code omnigraph.store.requests} and {@code omnigraph.store.bytes} (op, kind): object-store
 *       requests of the storage adapter and Lance operations, process-wide ({@link StoreRequests});
 *   <li>{@code omnigraph.policy.decisions} (action, outcome): every authorization gate decision, by the
 *       policy action and {@code allow} or {@code deny} ({@link #decided}); never an actor or a branch.
 * </ul>
 * A write answered {@link RecoveryRequired} also marks its sidecar write-blocking for readiness
 * and asks for a drift check; one answered {@link UncoveredDrift} marks the graph drifted.
 *
 * <p>Quarkus's {@code http.server.requests} labels a request by its route template once JAX-RS
 * matched a method, but by the raw path when matching failed after the path (wrong method 405,
 * wrong media type 415): anyone could mint labels, and once the 100-label cap filled, real routes
 * stopped being recorded. {@link #routeTemplatesOnly} keeps a {@code uri} only if it is a route
 * template of this service (or one of Quarkus's own buckets, such as {@code NOT_FOUND}) and
 * counts everything else under {@value #UNMATCHED}.
 */
@ApplicationScoped
class ServiceMetrics {

  static final String UNMATCHED = "UNMATCHED";
  /** The JAX-RS resources whose templates may be {@code uri} labels. */
  private static final List<Class<?>> RESOURCES = List.of(GraphResource.class, HealthzResource.class,
      OpenApiResource.class);
  private static final java.util.Set<String> TEMPLATES = templates(RESOURCES);

  @Inject MeterRegistry registry;

  /** Applied by Quarkus to the registry before any HTTP meter exists (see the class comment). */
  @jakarta.enterprise.inject.Produces
  @jakarta.inject.Singleton
  MeterFilter routeTemplatesOnly() {
    return new MeterFilter() {
      @Override
      public Meter.Id map(Meter.Id id) {
        String uri = id.getTag("uri");
        if (!id.getName().equals("http.server.requests") || uri == null || labelable(uri)) {
          return id;
        }
        return id.replaceTags(Tags.of(id.getTags()).and("uri", UNMATCHED));
      }
    };
  }

  /** Whether {@code uri} may be a label: a route template, or not a path at all (a Quarkus bucket). */
  static boolean labelable(String uri) {
    return !uri.startsWith("/") || TEMPLATES.contains(uri);
  }

  /** Every route template of {@code resources}, spelled as Quarkus labels it (class path + method path). */
  static java.util.Set<String> templates(List<Class<?>> resources) {
    java.util.Set<String> out = new java.util.TreeSet<>();
    for (Class<?> resource : resources) {
      String base = trim(resource.getAnnotation(jakarta.ws.rs.Path.class).value());
      for (java.lang.reflect.Method m : resource.getDeclaredMethods()) {
        boolean route = java.util.Arrays.stream(m.getAnnotations())
            .anyMatch(a -> a.annotationType().isAnnotationPresent(jakarta.ws.rs.HttpMethod.class));
        if (route) {
          jakarta.ws.rs.Path sub = m.getAnnotation(jakarta.ws.rs.Path.class);
          out.add(sub == null ? base : base + trim(sub.value()));
        }
      }
    }
    return java.util.Set.copyOf(out);
  }

  private static String trim(String path) {
    String p = path.startsWith("/") ? path : "/" + path;
    return p.endsWith("/") && p.length() > 1 ? p.substring(0, p.length() - 1) : p;
  }

  /** Binds the process-wide store counters once, at startup, and shows every decision counter at 0. */
  void onStart(@jakarta.enterprise.event.Observes io.quarkus.runtime.StartupEvent start) {
    for (PolicyAction action : PolicyAction.values()) {
      decisions(action, true);
      decisions(action, false);
    }
    for (StoreCounters.Counter c : StoreCounters.all()) {
      io.micrometer.core.instrument.FunctionCounter.builder("omnigraph.store.requests", c,
              x -> x.requests().getAsLong())
          .description("Object-store requests (adapter) and Lance operations (lance_*), by what they addressed")
          .tag("op", c.op()).tag("kind", c.kind()).register(registry);
      io.micrometer.core.instrument.FunctionCounter.builder("omnigraph.store.bytes", c,
              x -> x.bytes().getAsLong())
          .description("Bytes moved by object-store requests").baseUnit("bytes")
          .tag("op", c.op()).tag("kind", c.kind()).register(registry);
    }
  }

  /**
   * Counts one gate decision ({@link Authorization} hangs this on every gate it hands out). Labels
   * are bounded by construction: the action enum and two outcomes.
   */
  void decided(PolicyAction action, PolicyDecision decision) {
    decisions(action, decision.allowed()).increment();
  }

  private Counter decisions(PolicyAction action, boolean allowed) {
    return Counter.builder("omnigraph.policy.decisions").description("Authorization decisions by action and outcome")
        .tag("action", action.wireName()).tag("outcome", allowed ? "allow" : "deny").register(registry);
  }

  /** Runs one write, timing it and counting its outcome. */
  <T> T write(ServedGraph graph, String writer, Supplier<T> write, Function<T, WriteResult> result) {
    long start = System.nanoTime();
    String outcome = "ok";
    try (AutoCloseable admitted = graph.admitWrite()) { // drain, standby, replica: 503 before anything runs
      T value = write.get();
      WriteResult r = result.apply(value);
      if (r != null) {
        counter("omnigraph.write.reprepares", graph, writer).increment(Math.max(0, r.attempts() - 1));
        counter("omnigraph.publish.retries", graph, writer).increment(Math.max(0, r.publishAttempts() - 1));
      }
      return value;
    } catch (RuntimeException e) {
      outcome = ErrorKind.of(e).label();
      if (e instanceof RecoveryRequired rr) {
        graph.markBlocking(rr.operationId());
        // The effect may have landed; should its sidecar be lost before recovery settles it, that is
        // uncovered drift, which the reconciler's next drift check then shows.
        graph.requestDriftCheck();
      } else if (e instanceof UncoveredDrift) {
        // Every later write fails the same way until an operator repairs: readiness says so.
        graph.markDrift();
      }
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("closing a write admission cannot fail", e);
    } finally {
      Timer.builder("omnigraph.write.duration").description("Write latency, every attempt")
          .tag("graph", graph.id()).tag("writer", writer).publishPercentileHistogram()
          .register(registry).record(System.nanoTime() - start, java.util.concurrent.TimeUnit.NANOSECONDS);
      Counter.builder("omnigraph.writes").description("Write attempts by outcome")
          .tag("graph", graph.id()).tag("writer", writer).tag("outcome", outcome)
          .register(registry).increment();
    }
  }

  private Counter counter(String name, ServedGraph graph, String writer) {
    return Counter.builder(name).tag("graph", graph.id()).tag("writer", writer).register(registry);
  }

  /** Registers the pending-sidecar gauge of {@code graph} (read from its last listing). */
  void pendingGauge(ServedGraph graph) {
    // A registry can outlive one application start (Quarkus tests restart the application in one
    // JVM): registering an id that is already there returns the old gauge, which reads the old
    // start's graph, held weakly and soon collected, so the series vanished. Replace it, and hold
    // this start's graph strongly: the registry's lifetime is the application's.
    registry.find(PENDING_SIDECARS).tag("graph", graph.id()).meters().forEach(registry::remove);
    Gauge.builder(PENDING_SIDECARS, graph, ServedGraph::lastPendingCount).strongReference(true)
        .description("Recovery sidecars pending at the last listing").tag("graph", graph.id()).register(registry);
  }

  private static final String PENDING_SIDECARS = "omnigraph.recovery.pending.sidecars";

  /** Counts settled sidecars. */
  void recovered(ServedGraph graph, List<Outcome> outcomes) {
    for (Outcome o : outcomes) {
      recovery(graph, o.verdict().name().toLowerCase(java.util.Locale.ROOT),
          o.action().name().toLowerCase(java.util.Locale.ROOT));
    }
  }

  /** Counts a sidecar recovery refused (kept for an operator). */
  void refused(ServedGraph graph) {
    recovery(graph, "refused", "kept");
  }

  private void recovery(ServedGraph graph, String verdict, String action) {
    Counter.builder("omnigraph.recovery.outcomes").description("Recovery sidecars settled or refused")
        .tag("graph", graph.id()).tag("verdict", verdict).tag("action", action).register(registry).increment();
  }
}
