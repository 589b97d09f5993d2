/**
 * The wire contract's types: request and response records (named after the reference OpenAPI's
 * schemas) and the typed outcomes a caller acts on (KeyConflict, ReadSetChanged, RecoveryRequired,
 * ResourceLimitExceeded, PreconditionFailed, the storage failure kinds). It is the floor
 * everything else stands on, so it uses none of our other packages.
 */
@PackageContract(
    owns = "the wire types and typed outcomes every caller sees",
    mayUse = {})
package dev.omnigraph.api;

import dev.omnigraph.PackageContract;
