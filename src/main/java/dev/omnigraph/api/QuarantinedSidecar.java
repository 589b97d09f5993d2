package dev.omnigraph.api;

/**
 * What quarantining an unreadable recovery sidecar ({@code omnigraph recover --quarantine}) moved: the sidecar's key, where its bytes now live, why recovery could
 * not read it, and its raw content (bytes as stored, for the operator to inspect).
 */
public record QuarantinedSidecar(String key, String quarantineKey, String reason, byte[] content) {}
