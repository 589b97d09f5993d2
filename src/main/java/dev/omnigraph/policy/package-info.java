/**
 * The authorization policy: the YAML rules, their evaluation into a decision per action, branch
 * and type scopes, and the policy tests. It uses only the wire types, so it can be reasoned about
 * alone. It may use: api.
 */
@PackageContract(
    owns = "the authorization policy language and its decisions",
    mayUse = {"api"})
package dev.omnigraph.policy;

import dev.omnigraph.PackageContract;
