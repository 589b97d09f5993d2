/**
 * The .gqt runner, part of the engine: golden query tests (a query, its parameters and the expected
 * rows) run against a graph through {@link dev.omnigraph.engine.Omnigraph}; the CLI's {@code gqt}
 * command drives it.
 */
package dev.omnigraph.engine.gqt;
