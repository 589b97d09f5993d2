package dev.omnigraph.read;

import dev.omnigraph.api.TableKey;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import dev.omnigraph.api.ChangeDiffRefused;
import dev.omnigraph.api.ChangeFeedGap;
import dev.omnigraph.api.ChangeOp;
import dev.omnigraph.api.ChangesPage;
import dev.omnigraph.api.CommitChangesOutput;
import dev.omnigraph.api.InvalidRequest;
import dev.omnigraph.api.GraphCommit;
import dev.omnigraph.manifest.ManifestState;
import dev.omnigraph.manifest.TablePin;
import dev.omnigraph.merge.BlobCells;
import dev.omnigraph.merge.Rows;
import dev.omnigraph.schema.Catalog;
import dev.omnigraph.schema.EdgeType;
import dev.omnigraph.schema.NodeType;
import dev.omnigraph.schema.Property;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.table.OrderedCursor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The entity changes one commit made relative to its first parent (reference
 * {@code docs/user/branching/changes.md}, "Commit changes"), one bounded page at a time: for every
 * table whose pin differs between the parent's and the commit's published states, two
 * {@link OrderedCursor}s (parent, commit) are merge-joined by id — an id only the commit holds is
 * an insert, only the parent a delete, both with different content an update; equal content (a
 * physical rewrite, compaction) is no change. The JVM holds one scanner batch per side plus the
 * page, never a table; a page stops at {@code limit} changes or its byte packing target, and its
 * token resumes the join at {@code id > last} in the same table.
 *
 * <p>Order is frozen: nodes before edges, then the opaque type id (stable table id), then entity id
 * (code point order, the cursors' order). One entity has one op in a first-parent diff.
 */
public final class CommitChanges {

  /**
   * Serialized bytes one page packs before it stops (reference {@code COMMIT_CHANGES_DEFAULT_BYTES}):
   * a packing target, not a wall — a change above it is delivered on a page of its own.
   */
  static final long PAGE_BYTES = 4L * 1024 * 1024;

  private static final ObjectMapper JSON = new ObjectMapper();

  private final DataTables tables;
  private final Catalog catalog;

  public CommitChanges(DataTables tables, Catalog catalog) {
    this.tables = tables;
    this.catalog = catalog;
  }

  /** One table slot of the diff, in the frozen order. */
  private record Slot(String kind, long typeId, TableKey tableKey, String typeName, TablePin before, TablePin after) {}

  /** What a page token carries: the commit and scope it continues, and the last position shown. */
  private record Token(String commit, String scope, String kind, long typeId, String lastId) {}

  /**
   * One page of {@code commit}'s changes against {@code parent}.
   *
   * @param before the state the first parent published
   * @param after the state {@code commit} published
   * @throws ChangeDiffRefused ({@code schema_boundary}) when a table is not the same table on both
   *     sides (registered on one only, or re-created)
   * @throws ChangeFeedGap when cleanup removed a table version either side pins
   * @throws InvalidRequest for an unknown type name, or a page token this commit and scope did not issue
   */
  public CommitChangesOutput page(GraphCommit commit, ManifestState before, ManifestState after, ChangesPage page) {
    String scope = scope(page);
    Optional<Token> resume = page.pageToken().map(t -> decode(t, commit.id(), scope));
    Set<TableKey> wantedTables = wantedTables(page.types());
    List<Slot> slots = new ArrayList<>();
    TreeSet<TableKey> keys = new TreeSet<>(before.tables().keySet());
    keys.addAll(after.tables().keySet());
    for (TableKey key : keys) {
      TablePin b = before.tables().get(key);
      TablePin a = after.tables().get(key);
      TablePin any = a != null ? a : b;
      if (b == null || a == null || !b.identity().equals(a.identity())) {
        throw new ChangeDiffRefused(ChangeDiffRefused.Reason.SCHEMA_BOUNDARY, commit.id(),
            Optional.of(any.typeName()), "commit " + commit.id() + " crosses a schema change of type "
                + any.typeName() + "; its entity diff is not synthesized");
      }
      if (!page.kinds().isEmpty() && !page.kinds().contains(a.entityKind())) {
        continue;
      }
      if (wantedTables != null && !wantedTables.contains(key)) {
        continue;
      }
      slots.add(new Slot(a.entityKind(), a.identity().stableTableId(), key, a.typeName(), b, a));
    }
    slots.sort(Comparator.comparing((Slot s) -> s.kind().equals("node") ? 0 : 1).thenComparingLong(Slot::typeId));

    List<CommitChangesOutput.EntityChange> out = new ArrayList<>();
    long bytes = 0;
    for (Slot slot : slots) {
      Optional<String> after0 = Optional.empty();
      if (resume.isPresent()) {
        Token t = resume.get();
        int c = compareSlot(slot, t.kind(), t.typeId());
        if (c < 0) {
          continue;
        }
        if (c == 0) {
          after0 = Optional.of(t.lastId());
        }
      }
      if (samePin(slot.before(), slot.after())) {
        continue; // the same version of the same ref: the same rows, not read
      }
      // A Blob cell's description locates bytes only within its data file: a same-size PUT can
      // land at the very same (position, size). Cells are compared as a merge compares them:
      // the same physical row (same address, same data files), or else the same bytes.
      BlobCells cells = new BlobCells(tables);
      try (OrderedCursor was = open(commit, slot.before(), after0);
          OrderedCursor is = open(commit, slot.after(), after0)) {
        while (true) {
          String wasId = was.peekId();
          String isId = is.peekId();
          if (wasId == null && isId == null) {
            break;
          }
          int c = wasId == null ? 1 : isId == null ? -1 : OrderedCursor.compareIds(wasId, isId);
          long rowBytes = (c <= 0 ? was.peekBytes() : 0) + (c >= 0 ? is.peekBytes() : 0);
          ChangeOp op;
          if (c < 0) {
            op = ChangeOp.DELETE;
          } else if (c > 0) {
            op = ChangeOp.INSERT;
          } else if (same(cells, slot, was, is)) {
            was.next();
            is.next();
            continue;
          } else {
            op = ChangeOp.UPDATE;
          }
          if (!page.ops().isEmpty() && !page.ops().contains(op)) {
            if (c <= 0) {
              was.next();
            }
            if (c >= 0) {
              is.next();
            }
            continue;
          }
          if (out.size() == page.limit() || (!out.isEmpty() && bytes + rowBytes > PAGE_BYTES)) {
            // Another change follows: the token resumes after the last one shown.
            CommitChangesOutput.EntityChange last = out.get(out.size() - 1);
            return new CommitChangesOutput(cause(commit), out, encode(new Token(commit.id(), scope, last.kind(),
                Long.parseLong(last.type().id()), last.id())));
          }
          Map<String, Object> beforeRow = c <= 0 ? was.next() : null;
          Map<String, Object> afterRow = c >= 0 ? is.next() : null;
          String id = String.valueOf((afterRow != null ? afterRow : beforeRow).get("id"));
          out.add(new CommitChangesOutput.EntityChange(slot.kind(),
              new CommitChangesOutput.TypeRef(Long.toString(slot.typeId()), slot.typeName()), id, op,
              image(slot, beforeRow), image(slot, afterRow)));
          bytes += rowBytes;
        }
      }
    }
    return new CommitChangesOutput(cause(commit), out, null);
  }

  /** Whether the cursors' current rows (one entity, before and after) are equal, Blob bytes included. */
  private static boolean same(BlobCells cells, Slot slot, OrderedCursor was, OrderedCursor is) {
    String id = was.peekId();
    BlobCells.Side before = new BlobCells.Side(slot.before(), was.peekRowAddress());
    BlobCells.Side after = new BlobCells.Side(slot.after(), is.peekRowAddress());
    return Rows.same(was.peek(), is.peek(), (column, x, y) -> cells.same(id, column, before, x, after, y));
  }

  private static int compareSlot(Slot slot, String kind, long typeId) {
    int k = Integer.compare(slot.kind().equals("node") ? 0 : 1, kind.equals("node") ? 0 : 1);
    return k != 0 ? k : Long.compare(slot.typeId(), typeId);
  }

  private static boolean samePin(TablePin a, TablePin b) {
    return a.location().equals(b.location()) && a.version() == b.version() && a.nativeBranch().equals(b.nativeBranch());
  }

  private OrderedCursor open(GraphCommit commit, TablePin pin, Optional<String> afterId) {
    try {
      return tables.orderedById(pin.at(), afterId, List.of(), true);
    } catch (RuntimeException failure) {
      boolean readable;
      try {
        readable = tables.versions().readable(pin.at());
      } catch (RuntimeException probe) {
        failure.addSuppressed(probe);
        throw failure;
      }
      if (!readable) {
        throw new ChangeFeedGap(commit.id(), "version " + pin.version() + " of type " + pin.typeName()
            + ", which commit " + commit.id() + " or its parent pins, was removed by cleanup");
      }
      throw failure;
    }
  }

  private static CommitChangesOutput.Cause cause(GraphCommit c) {
    return new CommitChangesOutput.Cause(c.id(), c.parent().orElse(null), c.mergedParent().orElse(null), c.branch(),
        c.actor().orElse(null), c.createdAtMicros());
  }

  private CommitChangesOutput.Image image(Slot slot, Map<String, Object> row) {
    if (row == null) {
      return null;
    }
    List<Property> properties;
    CommitChangesOutput.Endpoints endpoints = null;
    if (slot.kind().equals("node")) {
      properties = catalog.node(slot.typeName()).map(NodeType::properties).orElseThrow(() -> boundary(slot));
    } else {
      properties = catalog.edge(slot.typeName()).map(EdgeType::properties).orElseThrow(() -> boundary(slot));
      endpoints = new CommitChangesOutput.Endpoints(String.valueOf(row.get("src")), String.valueOf(row.get("dst")));
    }
    try (TokenBuffer buf = new TokenBuffer(JSON, false)) {
      buf.writeStartObject();
      for (Property p : properties) {
        buf.writeFieldName(p.name());
        Object v = row.get(p.name());
        if (v == null) {
          buf.writeNull();
        } else if (v instanceof dev.omnigraph.schema.BlobValue external) {
          buf.writeString(external.spelling()); // an external cell: its URI, as export writes it
        } else if (v instanceof dev.omnigraph.table.StoredBlob managed) {
          // A managed cell: its size, never its bytes (a page stays within PAGE_BYTES); the bytes
          // are read with GET /blob at the commit (docs/http-api.md, "Blob reads").
          buf.writeStartObject();
          buf.writeNumberField("size", managed.size());
          buf.writeEndObject();
        } else {
          GraphExport.value(buf, p.type(), v); // the export's spelling: what load parses back
        }
      }
      buf.writeEndObject();
      return new CommitChangesOutput.Image(JSON.readTree(buf.asParser()), endpoints);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static ChangeDiffRefused boundary(Slot slot) {
    return new ChangeDiffRefused(ChangeDiffRefused.Reason.SCHEMA_BOUNDARY, "", Optional.of(slot.typeName()),
        "type " + slot.typeName() + " is not in the accepted schema");
  }

  /** The table keys the type filter selects; null for no filter. */
  private Set<TableKey> wantedTables(Set<String> types) {
    if (types.isEmpty()) {
      return null;
    }
    Set<TableKey> keys = new TreeSet<>();
    for (String name : types) {
      if (catalog.node(name).isPresent()) {
        keys.add(catalog.node(name).get().tableKey());
      } else if (catalog.edge(name).isPresent()) {
        keys.add(catalog.edge(name).get().tableKey());
      } else {
        throw new InvalidRequest("unknown node or edge type '" + name + "' in 'type'");
      }
    }
    return keys;
  }

  /** A digest of the filter scope, so a token is refused under another scope. */
  private static String scope(ChangesPage page) {
    String text = String.join(",", new TreeSet<>(page.kinds())) + "|" + String.join(",", new TreeSet<>(page.types()))
        + "|" + page.ops().stream().map(ChangeOp::wire).sorted().reduce((a, b) -> a + "," + b).orElse("");
    return HexFormat.of().formatHex(sha256(text.getBytes(StandardCharsets.UTF_8)), 0, 8);
  }

  private static byte[] sha256(byte[] bytes) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(bytes);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** base64url(json) "." first 8 bytes of its SHA-256, hex: opaque, and a mangled token is caught. */
  static String encode(Token t) {
    try {
      byte[] json = JSON.writeValueAsBytes(t);
      return Base64.getUrlEncoder().withoutPadding().encodeToString(json) + "."
          + HexFormat.of().formatHex(sha256(json), 0, 8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Token decode(String token, String commitId, String scope) {
    Token t;
    try {
      int dot = token.lastIndexOf('.');
      byte[] json = Base64.getUrlDecoder().decode(token.substring(0, Math.max(dot, 0)));
      if (dot < 0 || !HexFormat.of().formatHex(sha256(json), 0, 8).equals(token.substring(dot + 1))) {
        throw new IllegalArgumentException("checksum");
      }
      t = JSON.readValue(json, Token.class);
    } catch (IOException | RuntimeException e) {
      throw new InvalidRequest("page token rejected: not a token this server issued");
    }
    if (!commitId.equals(t.commit())) {
      throw new InvalidRequest("page token rejected: it continues commit " + t.commit() + ", not " + commitId);
    }
    if (!scope.equals(t.scope())) {
      throw new InvalidRequest("page token rejected: it was issued for another kind/type/op filter");
    }
    if (t.lastId() == null || t.kind() == null) {
      throw new InvalidRequest("page token rejected: incomplete");
    }
    return t;
  }
}
