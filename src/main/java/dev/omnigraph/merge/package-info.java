/**
 * Three-way merge planning: the merge base, per-table deltas and joins, and the plan of bounded
 * chunks a merge writes. It plans; the write package commits. It may use: api, manifest, table.
 */
@PackageContract(
    owns = "three-way merge planning between two graph branches",
    mayUse = {"api", "manifest", "table"})
package dev.omnigraph.merge;

import dev.omnigraph.PackageContract;
