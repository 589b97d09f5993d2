/**
 * The schema language: parsing a .pg file, checking it, the schema IR stored beside the graph, and
 * the planner that turns one IR into another as schema-apply steps. It may use: api, util, syntax.
 */
@PackageContract(
    owns = "the .pg schema language: parse, check, the IR and its planner",
    mayUse = {"api", "util", "syntax"})
package dev.omnigraph.schema;

import dev.omnigraph.PackageContract;
