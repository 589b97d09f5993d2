package dev.omnigraph.schema;

import dev.omnigraph.api.ResourceLimitExceeded;
import java.util.Base64;

/**
 * The value written to a {@code Blob} property. The input rule is the reference's: a string
 * {@code base64:<payload>} is managed bytes, stored in the table's Lance blob column; any other string
 * is an external URI, held here as given until the write path admits it against the graph's allow
 * list and either materialises it (keyed writes) or stores it as a reference (overwrite)
 * (docs/schema-language.md, "Blob").
 */
public final class BlobValue {

  /**
   * The prefix of a Blob property's URI column in its table (docs/lance-write-layer.md, "Blob
   * columns"); property names starting with it are reserved.
   */
  public static final String URI_COLUMN_PREFIX = "__blob_uri_";

  /** The prefix that marks managed bytes in a Blob input string. */
  public static final String MANAGED_PREFIX = "base64:";

  /**
   * Bytes one keyed write may carry, summed over its Blob cells (docs/schema-language.md, "Blob"); the same
   * figure as the write path's 32 MiB Arrow limit per table transaction.
   */
  public static final long MAX_OPERATION_BYTES = dev.omnigraph.api.BlobLimits.MAX_OPERATION_BYTES;

  /** The {@code resource} of the refusal of a Blob payload over {@link #MAX_OPERATION_BYTES}. */
  public static final String PAYLOAD_RESOURCE = dev.omnigraph.api.BlobLimits.PAYLOAD_RESOURCE;

  private static final byte[] NONE = new byte[0];

  private final byte[] bytes;
  /** The external URI; null for managed bytes. */
  private final String uri;
  /** For an external URI: whether the graph admitted it (stored), or it is input still to admit. */
  private final boolean admitted;
  /**
   * Managed bytes held in a local file instead of {@link #bytes} (an overwrite load's value past the
   * NDJSON line bound, decoded as it streamed): null otherwise.
   */
  private final java.nio.file.Path file;
  private final long fileSize;

  private BlobValue(byte[] bytes, String uri, boolean admitted) {
    this(bytes, uri, admitted, null, 0);
  }

  private BlobValue(byte[] bytes, String uri, boolean admitted, java.nio.file.Path file, long fileSize) {
    this.bytes = bytes;
    this.uri = uri;
    this.admitted = admitted;
    this.file = file;
    this.fileSize = fileSize;
  }

  /**
   * Managed bytes of {@code size} held in {@code file} (docs/schema-language.md, "Blob"): an
   * overwrite load decodes a value too large for its line into a file, and the table write copies it
   * into Arrow's off-heap buffer from there, so the payload is never whole on the Java heap. The
   * file belongs to the load that made it.
   */
  public static BlobValue spilled(java.nio.file.Path file, long size) {
    return new BlobValue(NONE, null, false, java.util.Objects.requireNonNull(file, "file"), size);
  }

  /** The local file of a {@link #spilled} value; empty when the bytes are in memory or external. */
  public java.util.Optional<java.nio.file.Path> file() {
    return java.util.Optional.ofNullable(file);
  }

  /** Managed bytes, as given (not copied: the caller hands them over). */
  public static BlobValue managed(byte[] bytes) {
    return new BlobValue(bytes, null, false);
  }

  /**
   * A reference to an external object as input names it, not yet admitted: no bytes of its own
   * (docs/lance-write-layer.md, "Blob columns").
   */
  public static BlobValue external(String uri) {
    return new BlobValue(NONE, java.util.Objects.requireNonNull(uri, "uri"), false);
  }

  /**
   * An external reference the graph stores: admitted by the allow list when it was written (or read
   * back from a committed cell), so carrying it needs no check and no read of its source.
   */
  public static BlobValue storedExternal(String uri) {
    return new BlobValue(NONE, java.util.Objects.requireNonNull(uri, "uri"), true);
  }

  /** Whether this is an external reference already admitted (see {@link #storedExternal}). */
  public boolean isAdmitted() {
    return admitted;
  }

  /**
   * Parses one Blob input string. The decoded size is computed from the text and checked against
   * {@link #MAX_OPERATION_BYTES} before the decoder allocates its copy, so an oversized value
   * costs its text only.
   *
   * Any other string is an external URI, not yet admitted: the write path checks it against the
   * graph's allow list where it knows the graph and the cell.
   *
   * @throws ResourceLimitExceeded when the payload alone is over {@link #MAX_OPERATION_BYTES}
   * @throws IllegalArgumentException when the payload is not valid base64
   */
  public static BlobValue parse(String input) {
    if (!input.startsWith(MANAGED_PREFIX)) {
      return external(input);
    }
    long decoded = decodedLength(input, MANAGED_PREFIX.length());
    if (decoded > MAX_OPERATION_BYTES) {
      throw new ResourceLimitExceeded(PAYLOAD_RESOURCE, MAX_OPERATION_BYTES, decoded);
    }
    try {
      return managed(Base64.getDecoder().decode(input.substring(MANAGED_PREFIX.length())));
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
      return managed(bytes);
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

  /** Whether this names an external object instead of carrying bytes. */
  public boolean isExternal() {
    return uri != null;
  }

  /** The external URI; empty for managed bytes. */
  public java.util.Optional<String> uri() {
    return java.util.Optional.ofNullable(uri);
  }

  /**
   * The stored bytes (not copied: callers must not modify them); none for an external reference. A
   * {@link #spilled} value is read from its file on each call: a writer that can should copy from
   * {@link #file()} instead.
   */
  public byte[] bytes() {
    if (file == null) {
      return bytes;
    }
    try {
      return java.nio.file.Files.readAllBytes(file);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("could not read the spilled Blob value " + file, e);
    }
  }

  /** The managed payload size in bytes; 0 for an external reference (its size is the source's). */
  public long size() {
    return file != null ? fileSize : bytes.length;
  }

  /**
   * The input spelling that writes this value back: {@code base64:<payload>}, or the external URI
   * (export round-trips both).
   */
  public String spelling() {
    return uri != null ? uri : MANAGED_PREFIX + Base64.getEncoder().encodeToString(bytes());
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof BlobValue other && java.util.Objects.equals(uri, other.uri)
        && (file != null || other.file != null ? java.util.Objects.equals(file, other.file)
            : java.util.Arrays.equals(bytes, other.bytes));
  }

  @Override
  public int hashCode() {
    return 31 * java.util.Objects.hashCode(uri) + (file != null ? file.hashCode() : java.util.Arrays.hashCode(bytes));
  }

  @Override
  public String toString() {
    return uri != null ? "Blob(external)" : "Blob(" + size() + " bytes)";
  }
}
