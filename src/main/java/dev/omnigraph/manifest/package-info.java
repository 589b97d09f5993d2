/**
 * The graph manifest: branch authority and its tokens, lineage and commits, and
 * ManifestBatchPublisher, the only writer of __manifest, which publishes a write with one compare-
 * and-swap. It may use: api, lease, storage, table, util.
 */
@PackageContract(
    owns = "the graph manifest: authority tokens, lineage, the CAS publisher",
    mayUse = {"api", "lease", "storage", "table", "util"})
package dev.omnigraph.manifest;

import dev.omnigraph.PackageContract;
