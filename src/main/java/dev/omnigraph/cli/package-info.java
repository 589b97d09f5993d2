/**
 * The omnigraph command line: one picocli command per verb, run against a local graph root or a
 * server. A front end of the engine: it uses only the engine's entry points and the api's values
 * (and util), never a layer below the engine (WriterBoundaryRules.SERVER_AND_CLI_USE_ONLY_ENGINE_AND_API).
 * It may use: api, engine, util.
 */
@PackageContract(
    owns = "the omnigraph command line",
    mayUse = {"api", "engine", "util"})
package dev.omnigraph.cli;

import dev.omnigraph.PackageContract;
