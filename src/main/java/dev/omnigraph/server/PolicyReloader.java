package dev.omnigraph.server;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Applies policy file changes without a restart (docs/authorization.md, "Reload"): every
 * {@code omnigraph.policy.reload-interval} (2 s) a daemon thread asks {@link Authorization#reload}
 * whether a configured file's bytes changed. Polled by content, not watched: a Kubernetes ConfigMap
 * update swaps a {@code ..data} symlink, which a watch on the file's directory entry does not see.
 * A good file is applied (the new state line is logged, {@code omnigraph.policy.reloads} counts it)
 * and every graph's handles carry its gate; a refused one keeps the policy in force, logs why (file,
 * line, rule id) and counts {@code omnigraph.policy.reload.failures}. Readiness does not change: the
 * service keeps serving the last good policy. Started only when HTTP is enabled and a policy file is
 * configured.
 */
@ApplicationScoped
class PolicyReloader {

  private static final Logger LOG = Logger.getLogger(PolicyReloader.class);
  static final String RELOADS = "omnigraph.policy.reloads";
  static final String FAILURES = "omnigraph.policy.reload.failures";

  @Inject Authorization authorization;
  @Inject GraphRegistry graphs;
  @Inject MeterRegistry registry;

  @Inject OmnigraphConfig config;
  @ConfigProperty(name = "quarkus.http.host-enabled", defaultValue = "true") boolean httpEnabled;

  private ScheduledExecutorService executor;

  void onStart(@Observes StartupEvent event) {
    if (!httpEnabled || !authorization.hasPolicyFiles()) {
      return;
    }
    executor = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "omnigraph-policy-reloader");
      t.setDaemon(true);
      return t;
    });
    long millis = Math.max(50, config.policy().reloadInterval().toMillis());
    executor.scheduleWithFixedDelay(this::pass, millis, millis, TimeUnit.MILLISECONDS);
  }

  void onStop(@Observes ShutdownEvent event) {
    if (executor != null) {
      executor.shutdownNow();
    }
  }

  /** One pass; a failure of the pass itself is logged and the next pass tries again. */
  void pass() {
    try {
      List<Authorization.Reload> reloads = authorization.reload();
      for (Authorization.Reload r : reloads) {
        if (r.applied()) {
          counter(RELOADS, "Policy files reloaded and applied", r.source()).increment();
        } else {
          counter(FAILURES, "Policy file changes refused (the previous policy stays in force)", r.source()).increment();
          LOG.warnf("policy reload refused, the previous policy stays in force: %s (%s)", r.refusal().get(),
              r.source().key());
        }
      }
      if (reloads.stream().anyMatch(Authorization.Reload::applied)) {
        graphs.regate();
        LOG.infof("policy reloaded (%s): %s", String.join(", ", reloads.stream().filter(Authorization.Reload::applied)
            .map(r -> r.source().file().toString()).toList()), graphs.describeAuthorization());
      }
    } catch (RuntimeException e) {
      LOG.warn("policy reload pass failed; the next pass retries", e);
    }
  }

  private Counter counter(String name, String description, Authorization.Source source) {
    // Labelled by the configuration key: one series per configured file, a bounded set.
    return Counter.builder(name).description(description).tag("source", source.key()).register(registry);
  }
}
