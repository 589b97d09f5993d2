/**
 * The writer lease: a document in the graph's root naming the process that may write, renewed in
 * the background, and the fence every write checks before its publish. It may use: api, storage.
 */
@PackageContract(
    owns = "the graph writer lease and this process's claim on it",
    mayUse = {"api", "storage"})
package dev.omnigraph.lease;

import dev.omnigraph.PackageContract;
