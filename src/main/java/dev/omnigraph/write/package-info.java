/**
 * The direct-publish write path: the commit template that owns the write path's phases (capture
 * authority, prepare, arm, effect, revalidate, publish, confirm, retire) and the writers that plan
 * for it: mutations, loads, merges, schema apply and index ensure. It may use: api, gate,
 * manifest, merge, query, recovery, schema, table, util.
 */
@PackageContract(
    owns = "the direct-publish write path: the commit template and its writers",
    mayUse = {"api", "gate", "manifest", "merge", "query", "recovery", "schema", "table", "util"})
package dev.omnigraph.write;

import dev.omnigraph.PackageContract;
