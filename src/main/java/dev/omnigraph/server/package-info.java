/**
 * The Quarkus HTTP service: routes matching the reference OpenAPI, authentication and
 * authorization, admission control, the console and metrics. It may use: api, engine, lease,
 * maintenance, manifest, policy, query, read, recovery, storage, util, write.
 */
@PackageContract(
    owns = "the Quarkus HTTP service",
    mayUse = {"api", "engine", "lease", "maintenance", "manifest", "policy", "query", "read", "recovery", "storage", "util", "write"})
package dev.omnigraph.server;

import dev.omnigraph.PackageContract;
