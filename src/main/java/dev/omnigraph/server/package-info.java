/**
 * The Quarkus HTTP service: routes matching the reference OpenAPI, authentication and
 * authorization, admission control, the console and metrics. Besides engine, api and util it uses
 * only the types on WriterBoundaryRules.FRONT_END_DEBT, a list that only shrinks. It may use: api,
 * engine, lease, maintenance, policy, read, recovery, storage, util, write.
 */
@PackageContract(
    owns = "the Quarkus HTTP service",
    mayUse = {"api", "engine", "lease", "maintenance", "policy", "read", "recovery", "storage", "util", "write"})
package dev.omnigraph.server;

import dev.omnigraph.PackageContract;
