/**
 * The library's entry point: Omnigraph, one open graph root and every operation on it, composed
 * from the packages below. Server and CLI reach the graph only through here and the api: besides
 * Omnigraph, the doors by concern (RootContents for a root's store without opening its graph,
 * LoadInput for NDJSON load input, StoreCounters for the request counters), the authorization policy
 * ({@code engine.policy}, which uses only the api) and the .gqt runner ({@code engine.gqt}). It may
 * use: api, gate, lease, maintenance, manifest, merge, query, read, recovery, schema, storage,
 * table, util, write.
 */
@PackageContract(
    owns = "the library's entry point: one open graph and its operations",
    mayUse = {"api", "gate", "lease", "maintenance", "manifest", "merge", "query", "read", "recovery", "schema", "storage", "table", "util", "write"})
package dev.omnigraph.engine;

import dev.omnigraph.PackageContract;
