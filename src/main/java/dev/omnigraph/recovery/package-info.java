/**
 * Recovery sidecars: the record each writer arms before its first effect, their store (the only
 * writer of sidecars), and settling them after a crash by rolling forward or back. It may use:
 * api, gate, lease, manifest, schema, storage, table, util.
 */
@PackageContract(
    owns = "recovery sidecars and settling them after a crash",
    mayUse = {"api", "gate", "lease", "manifest", "schema", "storage", "table", "util"})
package dev.omnigraph.recovery;

import dev.omnigraph.PackageContract;
