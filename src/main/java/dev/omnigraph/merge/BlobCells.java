package dev.omnigraph.merge;

import dev.omnigraph.manifest.TablePin;
import dev.omnigraph.table.BlobReads;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.table.StoredBlob;
import dev.omnigraph.table.TableAt;
import java.io.OutputStream;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Whether two snapshots' committed Blob cells of one entity hold the same bytes: for the merge's
 * three-way rule, and for a commit's change list. A cell's description (position, size) locates its
 * bytes only within its data file, so equal descriptions prove nothing: a same-size rewrite can land
 * in a new file at the very same position. Two cells are the same when their sizes match and either
 * they are one physical row (the same {@code _rowaddr}, in a fragment with the same data files in
 * both snapshots: a fragment id is unique only along one dataset branch's history, a data file name
 * for good) or their bytes are equal, streamed through a digest in reads of at most
 * {@link BlobReads#CHUNK_BYTES}. An unchanged row therefore reads nothing; only rows rewritten on a
 * side with every other column equal are read.
 */
public final class BlobCells {

  /** One snapshot's row of the entity: its pin, and its row address there (-1: unknown). */
  public record Side(TablePin pin, long address) {}

  private final DataTables tables;
  /** Each snapshot's fragments' data files, read once per snapshot. */
  private final Map<TableAt, Map<Integer, List<String>>> files = new HashMap<>();

  public BlobCells(DataTables tables) {
    this.tables = tables;
  }

  /** Whether {@code id}'s committed cells {@code cx} (at {@code x}) and {@code cy} (at {@code y}) hold the same bytes. */
  public boolean same(String id, String column, Side x, StoredBlob cx, Side y, StoredBlob cy) {
    if (cx.size() != cy.size()) {
      return false;
    }
    if (x.address() >= 0 && x.address() == y.address()) {
      int fragment = (int) (x.address() >>> 32);
      List<String> inX = files(x.pin()).get(fragment);
      if (inX != null && inX.equals(files(y.pin()).get(fragment))) {
        return true;
      }
    }
    return Arrays.equals(digest(x.pin(), id, column), digest(y.pin(), id, column));
  }

  private Map<Integer, List<String>> files(TablePin pin) {
    return files.computeIfAbsent(pin.ref().at(pin.version()), tables::fragmentFiles);
  }

  private byte[] digest(TablePin pin, String id, String column) {
    MessageDigest sha;
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    try (BlobReads.Cell cell = tables.blobs().open(pin.at(), id, column)
        .orElseThrow(() -> new IllegalStateException("'" + id + "'." + column + " vanished from its pin"))) {
      cell.copyTo(0, cell.size().orElseThrow(), new DigestOutputStream(OutputStream.nullOutputStream(), sha));
    }
    return sha.digest();
  }
}
