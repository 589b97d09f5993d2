package dev.omnigraph.api.recovery;

/** What happened to one sidecar. */
public enum Action { COMPLETED, DEFERRED, SKIPPED }
