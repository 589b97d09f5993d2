/**
 * The wire contract's types: request and response records (named after the reference OpenAPI's
 * schemas) and the typed outcomes a caller acts on (KeyConflict, ReadSetChanged, RecoveryRequired,
 * ResourceLimitExceeded, PreconditionFailed, the storage failure kinds), and the values the
 * front ends pass to the engine or show from it: a write's result and load mode, read settings,
 * and, by concern in sub-packages, the policy's actions and decisions ({@code api.policy}), the
 * lease document and settings ({@code api.lease}), maintenance reports and settings
 * ({@code api.maintenance}), and the storage configuration and failure ({@code api.storage}).
 * Behaviour over these values stays in the packages below the engine. It is the floor everything
 * else stands on, so it uses none of our other packages.
 */
@PackageContract(
    owns = "the wire types, typed outcomes and values every caller sees",
    mayUse = {})
package dev.omnigraph.api;

import dev.omnigraph.PackageContract;
