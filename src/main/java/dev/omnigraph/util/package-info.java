/**
 * Small helpers with no knowledge of graphs: the bounded retry loop (the one retry loop), the
 * bounded background pool, failpoints, ULIDs, strict JSON and quoted strings. It uses none of our
 * other packages, so anything may use it.
 */
@PackageContract(
    owns = "small process-wide helpers with no knowledge of graphs",
    mayUse = {})
package dev.omnigraph.util;

import dev.omnigraph.PackageContract;
