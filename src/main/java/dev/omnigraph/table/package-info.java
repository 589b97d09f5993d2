/**
 * The table store: every Lance dataset handle, scan, write and commit goes through here (the only
 * package that calls Lance's write and commit APIs), with the classification of a commit's outcome
 * into typed results. It may use: api, schema, storage, util.
 */
@PackageContract(
    owns = "every Lance read, write and commit: the table store",
    mayUse = {"api", "schema", "storage", "util"})
package dev.omnigraph.table;

import dev.omnigraph.PackageContract;
