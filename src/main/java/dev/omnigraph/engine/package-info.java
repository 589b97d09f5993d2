/**
 * The library's entry point: Omnigraph, one open graph root and every operation on it, composed
 * from the packages below. Server and CLI reach the graph through here. It may use: api, gate,
 * lease, maintenance, manifest, merge, policy, query, read, recovery, schema, storage, table,
 * util, write.
 */
@PackageContract(
    owns = "the library's entry point: one open graph and its operations",
    mayUse = {"api", "gate", "lease", "maintenance", "manifest", "merge", "policy", "query", "read", "recovery", "schema", "storage", "table", "util", "write"})
package dev.omnigraph.engine;

import dev.omnigraph.PackageContract;
