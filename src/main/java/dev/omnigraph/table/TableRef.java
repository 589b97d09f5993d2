package dev.omnigraph.table;

import java.util.Objects;
import java.util.Optional;

/**
 * A table's dataset on one of its Lance branches: where the dataset lives under the graph root and
 * which native branch of it (empty: the dataset's main). A graph branch that has not touched a table
 * reads it on main; one that wrote to it holds it on a Lance branch of its own name.
 *
 * @param location dataset key under the graph root ({@code nodes/<hex>}), without a trailing slash
 * @param nativeBranch the dataset's Lance branch (empty: its main); never blank
 */
public record TableRef(String location, Optional<String> nativeBranch) {

  public TableRef {
    Objects.requireNonNull(location, "location");
    Objects.requireNonNull(nativeBranch, "nativeBranch");
    if (location.isBlank() || location.endsWith("/")) {
      throw new IllegalArgumentException("table location must be a dataset key: '" + location + "'");
    }
    if (nativeBranch.isPresent() && nativeBranch.get().isBlank()) {
      throw new IllegalArgumentException("a native branch is named (empty means main): " + location);
    }
  }

  /** The dataset's main. */
  public static TableRef main(String location) {
    return new TableRef(location, Optional.empty());
  }

  /** The dataset's Lance branch {@code nativeBranch} (empty: its main). */
  public static TableRef of(String location, Optional<String> nativeBranch) {
    return new TableRef(location, nativeBranch);
  }

  /** The dataset's Lance branch {@code nativeBranch}, by name (never its main). */
  public static TableRef branch(String location, String nativeBranch) {
    return new TableRef(location, Optional.of(nativeBranch));
  }

  /** This dataset branch pinned at {@code version}. */
  public TableAt at(long version) {
    return new TableAt(this, version);
  }
}
