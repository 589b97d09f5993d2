package dev.omnigraph.api;

/**
 * The Blob rule's figures (docs/schema-language.md, "Blob"): what one keyed write may carry in Blob
 * bytes, summed over its cells, and the {@code resource} its refusal names. Here, below everything,
 * so that the schema's value parser and the service's body limit read one number.
 */
public final class BlobLimits {

  /** Bytes one keyed write may carry over its Blob cells: the write path's 32 MiB per table transaction. */
  public static final long MAX_OPERATION_BYTES = 32L * 1024 * 1024;

  /** The {@code resource} of a {@link ResourceLimitExceeded} for Blob bytes over {@link #MAX_OPERATION_BYTES}. */
  public static final String PAYLOAD_RESOURCE = "blob_payload_bytes";

  private BlobLimits() {}
}
