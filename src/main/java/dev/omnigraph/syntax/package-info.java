/**
 * What the query and schema languages share around their ANTLR grammars: the bracket-depth limit that
 * bounds every recursion, the first-error listener that turns ANTLR's recovery into one typed error in
 * the language's words, and source-text normalisation. It owns no grammar and no language's types; it
 * may use only the ANTLR runtime and the JDK.
 */
@PackageContract(owns = "the ANTLR support shared by the query and schema languages", mayUse = {})
package dev.omnigraph.syntax;

import dev.omnigraph.PackageContract;
