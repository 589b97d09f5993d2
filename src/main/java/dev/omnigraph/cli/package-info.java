/**
 * The omnigraph command line: one picocli command per verb, run against a local graph root or a
 * server. Besides engine, api and util it uses only the types on WriterBoundaryRules.FRONT_END_DEBT,
 * a list that only shrinks. It may use: api, engine, gqt, lease, maintenance, policy, read,
 * recovery, storage, table, util, write.
 */
@PackageContract(
    owns = "the omnigraph command line",
    mayUse = {"api", "engine", "gqt", "lease", "maintenance", "policy", "read", "recovery", "storage", "table", "util", "write"})
package dev.omnigraph.cli;

import dev.omnigraph.PackageContract;
