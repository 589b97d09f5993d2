/**
 * The Quarkus HTTP service: routes matching the reference OpenAPI, authentication and
 * authorization, admission control, the console and metrics. A front end of the engine: it uses
 * only the engine's entry points and the api's values (and util), never a layer below the engine
 * (WriterBoundaryRules.SERVER_AND_CLI_USE_ONLY_ENGINE_AND_API). It may use: api, engine, util.
 */
@PackageContract(
    owns = "the Quarkus HTTP service",
    mayUse = {"api", "engine", "util"})
package dev.omnigraph.server;

import dev.omnigraph.PackageContract;
