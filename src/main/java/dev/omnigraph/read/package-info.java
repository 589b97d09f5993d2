/**
 * Reads at one snapshot: the plan of a checked query (ReadPlan), its execution against pinned
 * table versions with budgets, hops over adjacency, the change feed and exports. It may use: api,
 * manifest, merge, query, schema, table.
 */
@PackageContract(
    owns = "executing checked reads at one snapshot, and exports and change feeds",
    mayUse = {"api", "manifest", "merge", "query", "schema", "table"})
package dev.omnigraph.read;

import dev.omnigraph.PackageContract;
