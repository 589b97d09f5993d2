/**
 * The query language: parsing a .gq file into an AST, resolving names, typing, the limits a query
 * may not exceed, and the checked forms reads and mutations execute. It may use: schema, util,
 * syntax.
 */
@PackageContract(
    owns = "the .gq query language: parse, name resolution, typing, limits",
    mayUse = {"api", "schema", "util", "syntax"})
package dev.omnigraph.query;

import dev.omnigraph.PackageContract;
