package dev.omnigraph.api;

import java.util.List;

/**
 * The graph root was copied or moved (a {@code cp -r}, a backup restored elsewhere, a sync to
 * another bucket or prefix): Lance files under it still record the dataset locations of the root it
 * came from, so its branches would read their inherited rows from there, or fail once that is gone.
 * Nothing was read or written. {@code omnigraph relocate} (a read-write open does it too) points
 * them at this root.
 */
public final class RootRelocated extends Conflict {

  private final String root;
  private final List<String> recordedRoots;
  private final String file;
  private final String recorded;

  /**
   * @param root this graph's root URI
   * @param recordedRoots the other roots the files name (empty when a location names no dataset)
   * @param file one such file, relative to the root
   * @param recorded the location that file records
   */
  public RootRelocated(String root, List<String> recordedRoots, String file, String recorded) {
    super("graph root " + root + " was copied or moved"
        + (recordedRoots.isEmpty() ? "" : " from " + String.join(", ", recordedRoots))
        + ": its branch tables still record their parent's location there (" + file + " names " + recorded
        + "), so reading them would read the old root, not this one; nothing was read. Point them at this "
        + "root with: omnigraph relocate --store " + root);
    this.root = root;
    this.recordedRoots = List.copyOf(recordedRoots);
    this.file = file;
    this.recorded = recorded;
  }

  /** This graph's root URI. */
  public String root() {
    return root;
  }

  /** The roots the files still name. */
  public List<String> recordedRoots() {
    return recordedRoots;
  }

  /** One file (relative to the root) that records an outside location. */
  public String file() {
    return file;
  }

  /** The outside location {@link #file()} records. */
  public String recorded() {
    return recorded;
  }
}
