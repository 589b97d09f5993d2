package dev.omnigraph.table;

import java.util.Objects;
import java.util.Optional;

/**
 * One exact version of a table's dataset branch. A Lance version never changes once written, so a
 * {@code TableAt} names the same contents for as long as the version is kept (a cleanup may remove
 * it; a deleted and re-created branch reuses the numbers, which is why cached handles are forgotten
 * on branch create and delete).
 *
 * @param ref the dataset and its native branch
 * @param version the Lance version on that branch
 */
public record TableAt(TableRef ref, long version) {

  public TableAt {
    Objects.requireNonNull(ref, "ref");
    if (version < 0) {
      throw new IllegalArgumentException("a Lance version is not negative: " + version);
    }
  }

  /** The version {@code version} of the dataset branch {@code location}/{@code nativeBranch}. */
  public static TableAt of(String location, Optional<String> nativeBranch, long version) {
    return new TableAt(new TableRef(location, nativeBranch), version);
  }

  public String location() {
    return ref.location();
  }

  public Optional<String> nativeBranch() {
    return ref.nativeBranch();
  }
}
