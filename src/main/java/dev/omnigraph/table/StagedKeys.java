package dev.omnigraph.table;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.lance.FragmentMetadata;

/**
 * The ids of the small fragments this process staged, by data file (issue 11, "key checks that do
 * not read every fragment"). A key index covers a table's fragments only up to its last
 * optimization; the fragments written since are scanned by every key probe, one object-store GET
 * each. A fragment's data file is immutable and its rows can only be deleted afterwards, so the ids
 * written into it bound the ids it can ever hold: a probe whose keys are all outside that set may
 * skip the fragment with an exact answer. Fragments written by another process, or before this
 * process started, are not known here and are scanned as before, so the structure is an
 * optimization, never a source of truth.
 *
 * <p>Bounded: fragments of at most {@link #MAX_IDS} rows are recorded, and at most
 * {@link #MAX_FRAGMENTS} of them, least recently used dropped first (optimization folds them into
 * the index anyway).
 */
final class StagedKeys {

  static final int MAX_IDS = 1024;
  static final int MAX_FRAGMENTS = 1024;

  private static final Map<String, Set<String>> IDS = new LinkedHashMap<>(64, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Set<String>> eldest) {
      return size() > MAX_FRAGMENTS;
    }
  };

  private StagedKeys() {}

  /** Records the ids written into {@code staged} when it is one single-file fragment. */
  static void record(List<FragmentMetadata> staged, Collection<String> ids) {
    if (staged.size() != 1 || ids.size() > MAX_IDS) {
      return; // rows spread over several fragments: which id went where is not known here
    }
    fileOf(staged.get(0)).ifPresent(file -> {
      synchronized (IDS) {
        IDS.put(file, Set.copyOf(ids));
      }
    });
  }

  /** The ids ever written into {@code fragment}, when this process staged it. */
  static Optional<Set<String>> written(FragmentMetadata fragment) {
    return fileOf(fragment).flatMap(file -> {
      synchronized (IDS) {
        return Optional.ofNullable(IDS.get(file));
      }
    });
  }

  /** Forgets everything: what a process that did not stage the fragments knows (tests). */
  static void forgetAll() {
    synchronized (IDS) {
      IDS.clear();
    }
  }

  private static Optional<String> fileOf(FragmentMetadata fragment) {
    return fragment.getFiles().size() == 1 ? Optional.of(fragment.getFiles().get(0).getPath()) : Optional.empty();
  }
}
