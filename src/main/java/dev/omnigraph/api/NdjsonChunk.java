package dev.omnigraph.api;

/**
 * A run of whole input lines, {@code firstLine..lastLine} (1-based, inclusive), holding
 * {@code rows} non-blank lines: the CLI's {@code load --split} loads one per commit, read as strict UTF-8
 * with errors naming the whole input's line.
 */
public record NdjsonChunk(long firstLine, long lastLine, int rows, byte[] bytes) {}
