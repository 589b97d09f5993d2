/**
 * The .gqt runner: golden query tests (a query, its parameters and the expected rows) run against
 * a graph. It may use: api, engine, query, schema, storage, write.
 */
@PackageContract(
    owns = "the .gqt golden query test runner",
    mayUse = {"api", "engine", "query", "schema", "storage", "write"})
package dev.omnigraph.gqt;

import dev.omnigraph.PackageContract;
