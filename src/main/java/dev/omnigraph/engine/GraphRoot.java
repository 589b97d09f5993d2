package dev.omnigraph.engine;

import dev.omnigraph.gate.GateManager;
import dev.omnigraph.lease.ProcessLeases;
import dev.omnigraph.manifest.ManifestStates;
import dev.omnigraph.recovery.RetiringSidecars;
import dev.omnigraph.table.LanceRoot;

/**
 * One canonical graph root open in this process: what every handle of the root shares, one part per
 * layer that keeps state per root. Handles of one root must share these, or two handles of one root
 * would not serialise on the same gates, would each take the writer lease, and would miss what the
 * other wrote. Built and counted by {@link GraphRoots}; each component takes the part it uses through
 * its constructor.
 *
 * @param uri the canonical root URI ({@code StorageConfig.rootUri()})
 * @param gates the schema, branch and table gates and the writer queues
 * @param lance the Lance session and the table-branch answers
 * @param manifests the decoded manifest states and held manifest handles
 * @param schemas the accepted schema contract
 * @param retiring the background sidecar deletes in flight
 * @param leases this process's writer lease on the root
 */
record GraphRoot(String uri, GateManager gates, LanceRoot lance, ManifestStates manifests, SchemaHolder schemas,
    RetiringSidecars retiring, ProcessLeases leases) {

  /** Fresh parts of the canonical root {@code uri}. */
  static GraphRoot of(String uri) {
    LanceRoot lance = new LanceRoot(uri);
    ManifestStates manifests = new ManifestStates(lance);
    ProcessLeases leases = new ProcessLeases(uri);
    manifests.soleWriterWhen(() -> leases.status().isPresent());
    return new GraphRoot(uri, new GateManager(uri), lance, manifests, new SchemaHolder(), new RetiringSidecars(),
        leases);
  }

  /**
   * Lets go of what the root holds once no handle and no lease claim uses it: waits for background
   * sidecar deletes, closes the held manifest and table handles; the Lance session goes with the last
   * reference to it (a handle still open keeps its own).
   */
  void release() {
    retiring.await();
    manifests.forgetAll();
    lance.release();
  }
}
