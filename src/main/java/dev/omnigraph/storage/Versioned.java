package dev.omnigraph.storage;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * An object's bytes together with the version token they were read at, both from one read: the
 * token names exactly these bytes, so a {@link StorageAdapter#putIfMatch} with it replaces the object
 * only if nobody has changed it since.
 *
 * <p>The token is opaque: compare it only with {@link String#equals}, pass it back unchanged, never
 * parse it. On S3 it is the object's ETag as the store sent it; locally a SHA-256 of the content.
 * Both identify the <em>content</em>: an object rewritten with byte-identical content keeps its token,
 * so a caller whose correctness needs "nobody wrote since" must make every version's content unique
 * (the writer lease does: each version carries its owner id and its renewal time).
 *
 * @param data the whole object; not copied, callers must not modify it
 * @param versionToken the opaque token of exactly {@code data}
 */
public record Versioned(byte[] data, String versionToken) {

  public Versioned {
    Objects.requireNonNull(data, "data");
    Objects.requireNonNull(versionToken, "versionToken");
  }

  /** The content as UTF-8 text (malformed bytes replaced, as {@link StorageAdapter#readText}). */
  public String text() {
    return new String(data, StandardCharsets.UTF_8);
  }
}
