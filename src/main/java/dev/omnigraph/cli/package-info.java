/**
 * The omnigraph command line: one picocli command per verb, run against a local graph root or a
 * server. It may use: api, engine, gqt, lease, maintenance, manifest, policy, read, recovery,
 * storage, table, util, write.
 */
@PackageContract(
    owns = "the omnigraph command line",
    mayUse = {"api", "engine", "gqt", "lease", "maintenance", "manifest", "policy", "read", "recovery", "storage", "table", "util", "write"})
package dev.omnigraph.cli;

import dev.omnigraph.PackageContract;
