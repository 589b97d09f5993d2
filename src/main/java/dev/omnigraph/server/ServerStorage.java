package dev.omnigraph.server;

import dev.omnigraph.storage.StorageAdapter;
import dev.omnigraph.storage.StorageAdapters;
import dev.omnigraph.storage.StorageConfig;
import io.quarkus.runtime.Startup;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.file.Files;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The served graph root: one {@link StorageConfig} built from {@code omnigraph.storage.uri} and the
 * {@code AWS_*} environment, and one adapter over it for the life of the service.
 */
@ApplicationScoped
public class ServerStorage {

  private final StorageConfig config;
  private final StorageAdapter adapter;

  public ServerStorage(@ConfigProperty(name = "omnigraph.storage.uri") String uri) {
    this.config = StorageConfig.fromEnvironment(uri);
    if (config.backend() == StorageConfig.Backend.LOCAL) {
      try {
        // The embedded default must work on a fresh checkout: create the local root on first use.
        Files.createDirectories(config.localRoot());
      } catch (java.io.IOException e) {
        throw new IllegalStateException("cannot create the local graph root " + config.localRoot(), e);
      }
    }
    this.adapter = StorageAdapters.open(config);
  }

  public StorageConfig config() {
    return config;
  }

  public StorageAdapter adapter() {
    return adapter;
  }

  @PreDestroy
  void close() {
    adapter.close();
  }
}
