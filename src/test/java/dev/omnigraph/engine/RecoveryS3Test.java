package dev.omnigraph.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omnigraph.api.OpenMode;
import dev.omnigraph.api.SnapshotOutput;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.api.storage.StorageException;
import dev.omnigraph.testing.S3TestServer;
import dev.omnigraph.api.LoadMode;
import org.junit.jupiter.api.Test;

/**
 * The recovery suite on S3, plus the sidecar I/O faults produced by the S3 server itself (real
 * error responses on the wire, not failpoints).
 */
class RecoveryS3Test extends AbstractRecoveryTest {
  @Override
  protected StorageConfig newRoot() {
    return S3TestServer.get().freshRoot("recovery");
  }

  @Test
  void aTransientPutFailureOfTheSidecarAbortsWithNoEffectAndDoesNotWedgeLaterWrites() throws Exception {
    load("main", LoadMode.APPEND, person("ann", 1));
    SnapshotOutput before = graph.snapshot("main");
    try (AutoCloseable fault = S3TestServer.get().injectFault(config, "__recovery/", 503, "SlowDown", "PUT")) {
      assertThatThrownBy(() -> load("main", LoadMode.APPEND, person("bob", 2)))
          .isInstanceOfSatisfying(StorageException.class,
              e -> assertThat(e.kind()).isEqualTo(StorageException.Kind.TRANSIENT));
    }
    assertThat(graph.snapshot("main")).isEqualTo(before);
    assertThat(sidecars()).isEmpty();
    assertPinsEqualHeads("main");
    load("main", LoadMode.APPEND, person("bob", 2));
    assertThat(rows("main", "Person")).containsOnlyKeys("ann", "bob");
  }

  /**
   * A sidecar claim whose connection is closed with no answer (a pooled connection the server had
   * already closed; an answer cut off) is settled by reading the key, not reported as a failed
   * write: lost before it reached the store, it is tried again; landed, it is recognised as ours.
   */
  @Test
  void aSidecarClaimWithNoAnswerIsSettledWhetherOrNotItLanded() throws Exception {
    load("main", LoadMode.APPEND, person("ann", 1));
    long before = graph.snapshot("main").graphManifestVersion();
    try (AutoCloseable lost = S3TestServer.get().dropOnce(config, "__recovery/", "PUT", false)) {
      load("main", LoadMode.APPEND, person("bob", 2));
    }
    try (AutoCloseable landed = S3TestServer.get().dropOnce(config, "__recovery/", "PUT", true)) {
      load("main", LoadMode.APPEND, person("cy", 3));
    }
    assertThat(graph.snapshot("main").graphManifestVersion()).isEqualTo(before + 2);
    assertThat(rows("main", "Person")).containsOnlyKeys("ann", "bob", "cy");
    assertThat(sidecars()).isEmpty();
    assertThat(graph.recoveryAudit()).isEmpty();
  }

  @Test
  void aFailedSidecarDeleteOnTheWireStillReportsTheWriteAndIsRetiredNext() throws Exception {
    dev.omnigraph.api.WriteResult r;
    try (AutoCloseable fault = S3TestServer.get().injectFault(config, "__recovery/", 500, "InternalError",
        "DELETE")) {
      r = load("main", LoadMode.APPEND, person("bob", 2));
      // The delete runs after the acknowledgement (Phase D off the ack path): wait for it while
      // the wire still fails it.
      assertThat(sidecars()).hasSize(1);
    }
    assertThat(r.commitId()).isPresent();
    load("main", LoadMode.APPEND, person("cy", 3));
    assertThat(sidecars()).isEmpty();
    assertThat(graph.recoveryAudit()).singleElement()
        .satisfies(e -> assertThat(e.kind()).isEqualTo("RolledForward"));
  }

  @Test
  void aFailedListingOnTheWireFailsTheWriteAndTheReadWriteOpen() throws Exception {
    long published = graph.snapshot("main").graphManifestVersion();
    try (AutoCloseable fault = S3TestServer.get().injectFault(config, "__recovery", 500, "InternalError", "GET")) {
      assertThatThrownBy(() -> load("main", LoadMode.APPEND, person("bob", 2))).isInstanceOf(StorageException.class);
      graph.close();
      assertThatThrownBy(() -> Omnigraph.open(config, OpenMode.READ_WRITE)).isInstanceOf(StorageException.class);
      graph = Omnigraph.open(config, OpenMode.READ_ONLY);
    }
    assertThat(graph.snapshot("main").graphManifestVersion()).isEqualTo(published);
  }
}
