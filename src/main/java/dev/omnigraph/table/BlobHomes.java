package dev.omnigraph.table;

import dev.omnigraph.api.storage.StorageConfig;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.lance.Branch;
import org.lance.FragmentMetadata;
import org.lance.fragment.DataFile;
import org.lance.schema.LanceField;

/**
 * Which table version a Blob payload is taken through (docs/lance-write-layer.md, "Blob columns on
 * a branch"). A Lance branch forks its parent's fragments by reference: their data files stay in
 * the data folder of the dataset branch that wrote them, and the fork's manifest marks each with a
 * base id. Scans follow the mark; lance-core 7.0.0's {@code takeBlobs} does not, and looks for the
 * file in the branch's own data folder. So the payload of a row in an inherited fragment is taken
 * through the ancestor version the branch forked from, walking up until the fragment's file is that
 * ancestor's own. Row ids are stable, so the same row id names the same row, in the same file, at
 * every level. On main, and for a fragment the branch wrote itself, nothing is walked or opened.
 *
 * <p>Holds the ancestor handles it opened until closed. Not thread-safe.
 */
final class BlobHomes implements AutoCloseable {

  private final LanceRoot lance;
  private final StorageConfig config;
  private final TableAt at;
  private final TableHandle leaf;
  private final List<TableHandle> opened = new ArrayList<>();
  /** The home of each fragment id asked about so far. */
  private final Map<Integer, TableHandle> homes = new HashMap<>();
  /** Each visited level's fragments by id, read once per level. */
  private final Map<TableAt, Map<Integer, FragmentMetadata>> fragments = new HashMap<>();
  /** The dataset's branches, listed on the first inherited fragment. */
  private List<Branch> branches;

  /** Homes for the payloads of {@code leaf}, the caller's handle of exactly {@code at} (not closed here). */
  BlobHomes(LanceRoot lance, StorageConfig config, TableAt at, TableHandle leaf) {
    this.lance = lance;
    this.config = config;
    this.at = at;
    this.leaf = leaf;
  }

  /** The handle to take the {@code column} payload of the row at {@code rowAddress} through. */
  TableHandle of(long rowAddress, String column) {
    if (at.nativeBranch().isEmpty()) {
      return leaf; // main forks nothing: every file is its own
    }
    int fragmentId = (int) (rowAddress >>> 32);
    TableHandle home = homes.get(fragmentId);
    if (home == null) {
      home = walk(fragmentId, column);
      homes.put(fragmentId, home);
    }
    return home;
  }

  private TableHandle walk(int fragmentId, String column) {
    TableAt level = at;
    TableHandle handle = leaf;
    while (level.nativeBranch().isPresent() && inherited(level, handle, fragmentId, column)) {
      String name = level.nativeBranch().get();
      Branch branch = branches(handle).stream().filter(b -> b.getName().equals(name)).findFirst()
          .orElseThrow(() -> new IllegalStateException("the dataset branch '" + name + "' of " + at.location()
              + " is not listed, so the Blob files it forked cannot be found"));
      level = TableAt.of(at.location(), branch.getParentBranch(), branch.getParentVersion());
      handle = TableHandle.open(lance, config, level);
      opened.add(handle);
    }
    return handle;
  }

  /** Whether the file holding {@code column} in fragment {@code fragmentId} at {@code level} is another level's. */
  private boolean inherited(TableAt level, TableHandle handle, int fragmentId, String column) {
    FragmentMetadata fragment = fragments.computeIfAbsent(level, l -> byId(handle)).get(fragmentId);
    if (fragment == null) {
      throw new IllegalStateException("fragment " + fragmentId + " is not in " + level + ", which a row of it was read from");
    }
    int field = fieldId(handle, column);
    for (DataFile file : fragment.getFiles()) {
      for (int f : file.getFields()) {
        if (f == field) {
          return file.getBaseId().isPresent();
        }
      }
    }
    throw new IllegalStateException("no data file of fragment " + fragmentId + " at " + level + " holds '" + column + "'");
  }

  private List<Branch> branches(TableHandle handle) {
    if (branches == null) {
      branches = LanceCall.lance(() -> LanceSupport.listBranches(handle.main));
    }
    return branches;
  }

  private static Map<Integer, FragmentMetadata> byId(TableHandle handle) {
    Map<Integer, FragmentMetadata> out = new HashMap<>();
    LanceCall.lance(() -> handle.table.getFragments()).forEach(f -> out.put(f.getId(), f.metadata()));
    return out;
  }

  private static int fieldId(TableHandle handle, String column) {
    Optional<LanceField> field = handle.table.getLanceSchema().fields().stream()
        .filter(f -> f.getName().equals(column)).findFirst();
    return field.orElseThrow(() -> new IllegalStateException("the table has no column '" + column + "'")).getId();
  }

  @Override
  public void close() {
    RuntimeException failed = null;
    for (TableHandle h : opened) {
      try {
        h.close();
      } catch (RuntimeException e) {
        failed = failed == null ? e : failed;
      }
    }
    opened.clear();
    if (failed != null) {
      throw failed;
    }
  }
}
