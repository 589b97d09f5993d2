/**
 * Maintenance of a graph's storage: optimize (compaction through the commit template), cleanup of
 * old versions and leftovers, and repair of drift. It may use: api, gate, manifest, recovery,
 * storage, table, util, write.
 */
@PackageContract(
    owns = "optimize, cleanup and repair of a graph's storage",
    mayUse = {"api", "gate", "manifest", "recovery", "storage", "table", "util", "write"})
package dev.omnigraph.maintenance;

import dev.omnigraph.PackageContract;
