package dev.omnigraph.schema;

import dev.omnigraph.api.ResourceLimitExceeded;
import java.util.Base64;

/**
 * The value written to a {@code Blob} property. The input rule is the reference's: a string
 * {@code base64:<payload>} is managed bytes, stored in the table's Lance blob column; any other string
 * is an external URI. This build stores managed bytes only: an external URI is refused with
 * {@link ExternalBlobRefused} (docs/schema-language.md, "Blob").
 */
public final class BlobValue {

  /** The prefix that marks managed bytes in a Blob input string. */
  public static final String MANAGED_PREFIX = "base64:";

  /**
   * Bytes one keyed write may carry, summed over its Blob cells (docs/schema-language.md, "Blob"); the same
   * figure as the write path's 32 MiB Arrow limit per table transaction.
   */
  public static final long MAX_OPERATION_BYTES = dev.omnigraph.api.BlobLimits.MAX_OPERATION_BYTES;

  /** The {@code resource} of the refusal of a Blob payload over {@link #MAX_OPERATION_BYTES}. */
  public static final String PAYLOAD_RESOURCE = dev.omnigraph.api.BlobLimits.PAYLOAD_RESOURCE;

  private final byte[] bytes;

  private BlobValue(byte[] bytes) {
    this.bytes = bytes;
  }

  /** Managed bytes, as given (not copied: the caller hands them over). */
  public static BlobValue managed(byte[] bytes) {
    return new BlobValue(bytes);
  }

  /**
   * Parses one Blob input string. The decoded size is computed from the text and checked against
   * {@link #MAX_OPERATION_BYTES} before the decoder allocates its copy, so an oversized value
   * costs its text only.
   *
   * @throws ResourceLimitExceeded when the payload alone is over {@link #MAX_OPERATION_BYTES}
   * @throws ExternalBlobRefused for any string that is not {@code base64:}
   * @throws IllegalArgumentException when the payload is not valid base64
   */
  public static BlobValue parse(String input) {
    if (!input.startsWith(MANAGED_PREFIX)) {
      throw new ExternalBlobRefused(input);
    }
    long decoded = decodedLength(input, MANAGED_PREFIX.length());
    if (decoded > MAX_OPERATION_BYTES) {
      throw new ResourceLimitExceeded(PAYLOAD_RESOURCE, MAX_OPERATION_BYTES, decoded);
    }
    try {
      return new BlobValue(Base64.getDecoder().decode(input.substring(MANAGED_PREFIX.length())));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("a Blob value 'base64:…' must carry standard base64: " + e.getMessage());
    }
  }

  /**
   * Reads managed bytes from a raw stream (a {@code PUT /blob} body, {@code omnigraph blob put}),
   * never more than {@link #MAX_OPERATION_BYTES}: a declared length over it is refused before any
   * byte is read, and an undeclared (chunked) stream is cut off at the first byte past it.
   *
   * @param declared the length the sender announced, if any
   * @throws ResourceLimitExceeded for a payload over {@link #MAX_OPERATION_BYTES}
   * @throws java.io.UncheckedIOException when the stream fails
   */
  public static BlobValue read(java.io.InputStream in, java.util.OptionalLong declared) {
    if (declared.isPresent() && declared.getAsLong() > MAX_OPERATION_BYTES) {
      throw new ResourceLimitExceeded(PAYLOAD_RESOURCE, MAX_OPERATION_BYTES, declared.getAsLong());
    }
    try {
      // One byte past the limit proves an oversized stream without holding more of it.
      byte[] bytes = in.readNBytes((int) MAX_OPERATION_BYTES + 1);
      if (bytes.length > MAX_OPERATION_BYTES) {
        throw new ResourceLimitExceeded(PAYLOAD_RESOURCE, MAX_OPERATION_BYTES, bytes.length);
      }
      return new BlobValue(bytes);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("could not read the Blob payload", e);
    }
  }

  /** The decoded size of the base64 text from {@code from}, padding discounted: no allocation. */
  static long decodedLength(String text, int from) {
    long chars = text.length() - from;
    int padding = 0;
    for (int i = text.length() - 1; i >= from && padding < 2 && text.charAt(i) == '='; i--) {
      padding++;
    }
    return chars * 3 / 4 - padding;
  }

  /** The stored bytes (not copied: callers must not modify them). */
  public byte[] bytes() {
    return bytes;
  }

  /** The payload size in bytes. */
  public long size() {
    return bytes.length;
  }

  /** The input spelling that writes these bytes back: {@code base64:<payload>} (export round-trips it). */
  public String spelling() {
    return MANAGED_PREFIX + Base64.getEncoder().encodeToString(bytes);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof BlobValue other && java.util.Arrays.equals(bytes, other.bytes);
  }

  @Override
  public int hashCode() {
    return java.util.Arrays.hashCode(bytes);
  }

  @Override
  public String toString() {
    return "Blob(" + bytes.length + " bytes)";
  }
}
