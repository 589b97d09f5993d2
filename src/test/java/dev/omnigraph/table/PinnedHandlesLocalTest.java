package dev.omnigraph.table;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omnigraph.api.storage.StorageConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The handle cache lives in each root's {@link LanceRoot}: two roots never share a handle, releasing
 * a root closes its handles, and the process-wide bound holds however many roots are built.
 */
class PinnedHandlesLocalTest {
  @TempDir Path dir;

  private static TableHandle leaseV1(LanceRoot root, StorageConfig config) {
    return TableHandle.open(root, config, TableRef.main("nodes/p").at(1));
  }

  @Test
  void eachRootCachesItsOwnHandlesAndReleasesThem() {
    StorageConfig config = StorageConfig.local(dir);
    assertThat(new TableStore(config).createEmpty("nodes/p", TableFixtures.person())).isEqualTo(1);
    LanceRoot a = new LanceRoot(config.rootUri());
    LanceRoot b = new LanceRoot(config.rootUri());

    org.lance.Dataset first;
    try (TableHandle h = leaseV1(a, config)) {
      first = h.table;
    }
    try (TableHandle again = leaseV1(a, config); TableHandle other = leaseV1(b, config)) {
      assertThat(again.table).isSameAs(first);
      assertThat(other.table).isNotSameAs(first);
    }
    assertThat(a.handles.cached()).isEqualTo(1);
    assertThat(b.handles.cached()).isEqualTo(1);

    a.release();
    assertThat(a.handles.cached()).isZero();
    assertThat(b.handles.cached()).isEqualTo(1);
    try (TableHandle reopened = leaseV1(a, config)) {
      assertThat(reopened.table).isNotSameAs(first);
      assertThat(reopened.table.version()).isEqualTo(1);
    }
    a.release();
    b.release();
  }

  @Test
  void theSharedBoundHoldsAcrossRoots() {
    StorageConfig config = StorageConfig.local(dir);
    new TableStore(config).createEmpty("nodes/p", TableFixtures.person());
    PinnedHandles.Budget budget = new PinnedHandles.Budget(3);
    LanceRoot oldest = new LanceRoot(config.rootUri(), budget);
    try (TableHandle h = leaseV1(oldest, config)) {
      assertThat(oldest.handles.cached()).isEqualTo(1);
    }
    // Roots nobody releases (a tool's throw-away DataTables) must not pile up handles: the least
    // recently used one, of whichever root, goes first.
    for (int i = 0; i < budget.max; i++) {
      try (TableHandle h = leaseV1(new LanceRoot(config.rootUri(), budget), config)) {
        assertThat(h.table.version()).isEqualTo(1);
      }
      assertThat(budget.cached()).isEqualTo(Math.min(i + 2, budget.max));
    }
    assertThat(oldest.handles.cached()).isZero();
    assertThat(PinnedHandles.Budget.PROCESS.max).isEqualTo(4 * PinnedHandles.MAX_HANDLES);
  }
}
