package dev.omnigraph.api;

import java.util.Arrays;

/** Entity-tag list comparison (RFC 9110 §13.1.1, §13.1.2), shared by Blob reads and Blob writes. */
public final class EntityTags {

  private EntityTags() {}

  /**
   * Whether the entity-tag list {@code header} names {@code etag}: {@code *} matches any (the cell
   * exists); a strong comparison ignores weak tags, a weak one compares them without {@code W/}.
   */
  public static boolean matches(String header, String etag, boolean strong) {
    return Arrays.stream(header.split(",")).map(String::strip).anyMatch(t -> t.equals("*")
        || (strong ? t.equals(etag) : (t.startsWith("W/") ? t.substring(2) : t).equals(etag)));
  }
}
