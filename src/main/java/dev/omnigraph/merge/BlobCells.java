package dev.omnigraph.merge;

import dev.omnigraph.manifest.TablePin;
import dev.omnigraph.table.BlobReads;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.table.StoredBlob;
import java.io.OutputStream;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Set;

/**
 * Whether two snapshots' committed Blob cells of one entity hold the same bytes, for the merge's
 * three-way rule. A cell's description (position, size) locates its bytes only within its data
 * file, so equal descriptions prove nothing: a same-size rewrite on one branch can land in a new
 * file at the very same position. Two cells are the same when their sizes match and either they are
 * one physical row (the same {@code _rowaddr} in a fragment the merge base already holds: base,
 * source and target all descend from the base, whose fragment ids no descendant reuses) or their
 * bytes are equal, streamed through a digest in reads of at most {@link BlobReads#CHUNK_BYTES}. An
 * unchanged row therefore reads nothing; only rows rewritten on a side with every other column
 * equal are read.
 */
public final class BlobCells {

  /** One snapshot's row of the entity: its pin, and its row address there (-1: unknown). */
  public record Side(TablePin pin, long address) {}

  private final DataTables tables;
  private final TablePin base;
  private Set<Integer> baseFragments;

  /**
   * Cells of snapshots that all descend from {@code base} (a merge's base; a commit's parent state
   * when one commit's changes are listed).
   */
  public BlobCells(DataTables tables, TablePin base) {
    this.tables = tables;
    this.base = base;
  }

  /** Whether {@code id}'s committed cells {@code cx} (at {@code x}) and {@code cy} (at {@code y}) hold the same bytes. */
  public boolean same(String id, String column, Side x, StoredBlob cx, Side y, StoredBlob cy) {
    if (cx.size() != cy.size()) {
      return false;
    }
    if (x.address() >= 0 && x.address() == y.address() && baseFragments().contains((int) (x.address() >>> 32))) {
      return true;
    }
    return Arrays.equals(digest(x.pin(), id, column), digest(y.pin(), id, column));
  }

  private Set<Integer> baseFragments() {
    if (baseFragments == null) {
      baseFragments = tables.fragmentIds(base.ref().at(base.version()));
    }
    return baseFragments;
  }

  private byte[] digest(TablePin pin, String id, String column) {
    MessageDigest sha;
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    try (BlobReads.Cell cell = tables.blobs().open(pin.location(), pin.nativeBranch(), pin.version(), id, column)
        .orElseThrow(() -> new IllegalStateException("'" + id + "'." + column + " vanished from its pin"))) {
      cell.copyTo(0, cell.size().orElseThrow(), new DigestOutputStream(OutputStream.nullOutputStream(), sha));
    }
    return sha.digest();
  }
}
