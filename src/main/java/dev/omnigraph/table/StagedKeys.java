package dev.omnigraph.table;

import java.util.Arrays;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.lance.FragmentMetadata;

/**
 * What this process knows about the ids in the fragments it staged, by data file (docs/write-path.md, "what a write costs", "key
 * checks that do not read every fragment"). A key index covers a table's fragments only up to its
 * last optimization; the fragments written since are read by every key probe (one object-store GET
 * each, and on a bulk load the probe's {@code IN} list evaluated over each of them). A fragment's
 * data file is immutable and its rows can only be deleted afterwards, so the ids written into it
 * bound the ids it can ever hold: a probe none of whose keys was written there may skip the
 * fragment with an exact answer. Fragments written by another process, or before this process
 * started, are not known here and are read as before, so the structure is an optimization, never a
 * source of truth.
 *
 * <p>A fragment's ids are kept as their sorted 64-bit hashes ({@link Probe}): a probe key whose hash
 * is absent was certainly not written there; a hash that is present (the key, or a collision) only
 * means the fragment is read, so the answer stays exact either way.
 *
 * <p>Bounded: fragments of at most {@link #MAX_IDS} rows are recorded, and at most
 * {@link #MAX_HASHES} hashes (8 MiB) over all of them, least recently used fragment dropped first
 * (optimization folds them into the index anyway).
 */
final class StagedKeys {

  /** The largest fragment recorded: a whole load or merge chunk of one table (WriteLimits). */
  static final int MAX_IDS = 8_192;
  /** Hashes kept over all fragments: 8 bytes each. */
  static final int MAX_HASHES = 1 << 20;

  private static final Map<String, long[]> HASHES = new LinkedHashMap<>(64, 0.75f, true);
  private static long held;

  private StagedKeys() {}

  /** Records the ids written into {@code staged} when it is one single-file fragment. */
  static void record(List<FragmentMetadata> staged, Collection<String> ids) {
    if (staged.size() != 1 || ids.size() > MAX_IDS) {
      return; // rows spread over several fragments: which id went where is not known here
    }
    record(staged, sortedHashes(ids));
  }

  /** As above, from the ids' {@link #hash hashes}, sorted (duplicates allowed). */
  static void record(List<FragmentMetadata> staged, long[] sortedHashes) {
    if (staged.size() != 1 || sortedHashes.length > MAX_IDS) {
      return;
    }
    fileOf(staged.get(0)).ifPresent(file -> {
      synchronized (HASHES) {
        long[] previous = HASHES.put(file, sortedHashes);
        held += sortedHashes.length - (previous == null ? 0 : previous.length);
        Iterator<long[]> eldest = HASHES.values().iterator();
        while (held > MAX_HASHES && eldest.hasNext()) {
          held -= eldest.next().length;
          eldest.remove();
        }
      }
    });
  }

  /**
   * The keys of one probe, hashed once for every fragment it is checked against.
   */
  static final class Probe {
    private final long[] hashes;

    Probe(Collection<String> ids) {
      this.hashes = sortedHashes(ids);
    }

    /**
     * True when this process staged {@code fragment} and none of the probe's keys was written into
     * it: the fragment cannot hold any of them. False when unknown or possibly present.
     */
    boolean provablyFree(FragmentMetadata fragment) {
      Optional<String> file = fileOf(fragment);
      if (file.isEmpty()) {
        return false;
      }
      long[] written;
      synchronized (HASHES) {
        written = HASHES.get(file.get());
      }
      return written != null && disjoint(hashes, written);
    }
  }

  /** Forgets everything: what a process that did not stage the fragments knows (tests). */
  static void forgetAll() {
    synchronized (HASHES) {
      HASHES.clear();
      held = 0;
    }
  }

  private static boolean disjoint(long[] a, long[] b) {
    int i = 0;
    int j = 0;
    while (i < a.length && j < b.length) {
      if (a[i] == b[j]) {
        return false;
      }
      if (a[i] < b[j]) {
        i++;
      } else {
        j++;
      }
    }
    return true;
  }

  /** The ids' {@link #hash hashes}, sorted. */
  static long[] sortedHashes(Collection<String> ids) {
    long[] out = new long[ids.size()];
    int n = 0;
    for (String id : ids) {
      out[n++] = hash(id);
    }
    Arrays.sort(out);
    return out;
  }

  /**
   * FNV-1a over the UTF-16 code units (no byte copy; probes hash thousands of ids), then a 64-bit
   * finaliser (MurmurHash3's fmix64) to spread it. Not resistant to chosen collisions, and it need
   * not be: a collision only makes a probe read one more fragment.
   */
  static long hash(String id) {
    long h = 0xcbf29ce484222325L;
    for (int i = 0; i < id.length(); i++) {
      h ^= id.charAt(i);
      h *= 0x100000001b3L;
    }
    return finish(h);
  }

  /**
   * {@link #hash(String)} of the UTF-8 value {@code bytes[start, end)} of an Arrow buffer, without
   * building the String when the value is ASCII (one byte per UTF-16 code unit); any other value is
   * decoded first, so both spellings hash alike.
   */
  static long hash(org.apache.arrow.memory.ArrowBuf bytes, long start, long end) {
    long h = 0xcbf29ce484222325L;
    for (long i = start; i < end; i++) {
      byte b = bytes.getByte(i);
      if (b < 0) {
        byte[] utf8 = new byte[(int) (end - start)];
        bytes.getBytes(start, utf8);
        return hash(new String(utf8, java.nio.charset.StandardCharsets.UTF_8));
      }
      h ^= b;
      h *= 0x100000001b3L;
    }
    return finish(h);
  }

  private static long finish(long h) {
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    h *= 0xc4ceb9fe1a85ec53L;
    h ^= h >>> 33;
    return h;
  }

  private static Optional<String> fileOf(FragmentMetadata fragment) {
    return fragment.getFiles().size() == 1 ? Optional.of(fragment.getFiles().get(0).getPath()) : Optional.empty();
  }
}
