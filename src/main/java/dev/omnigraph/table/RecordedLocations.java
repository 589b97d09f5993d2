package dev.omnigraph.table;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The dataset locations Lance writes into its own files, read and rewritten at the protobuf wire
 * level, without Lance's generated classes (lance-java exposes none of them, and not the base
 * paths either). Everything but the location strings is copied byte for byte, so fields this code
 * does not know survive a rewrite.
 *
 * <p>Where Lance 7 records a location (its {@code protos/table.proto} and
 * {@code protos/transaction.proto}; {@code Dataset::create_branch} in {@code rust/lance/src/dataset.rs}
 * commits an {@code Operation::Clone} whose {@code ref_path} is the source dataset's URI, and
 * {@code do_commit_new_dataset} in {@code rust/lance/src/io/commit.rs} turns it into a
 * {@code BasePath} that every inherited data, deletion and index file names by {@code base_id}):
 * <ul>
 *   <li>a manifest's {@code base_paths} (field 18), each a {@code BasePath} whose {@code path}
 *       (field 4) is an absolute path or URI, parsed as is on every read;
 *   <li>the {@code Clone} operation (field 113 of {@code Transaction}, its {@code ref_path} field
 *       4), both in the {@code _transactions/*.txn} file and inline in the branch's first manifest
 *       ({@code transaction_section}, field 21).
 * </ul>
 *
 * <p>A manifest file is {@code [sections][u32 len][Manifest][i64 manifest_pos][i16 major][i16
 * minor]["LANC"]} ({@code read_manifest} in {@code rust/lance-table/src/io/manifest.rs}); the inline
 * transaction, when present, is the section right before the manifest ({@code do_write_manifest}
 * writes the index section, then the transaction, then the manifest). Sections before the
 * transaction are kept at their offsets, so the offsets the manifest records stay right.
 */
final class RecordedLocations {

  static final byte[] MAGIC = "LANC".getBytes(StandardCharsets.US_ASCII);
  private static final int FOOTER = 16;

  private static final int MANIFEST_BASE_PATHS = 18;
  private static final int MANIFEST_TRANSACTION_SECTION = 21;
  private static final int BASE_PATH_PATH = 4;
  private static final int TRANSACTION_CLONE = 113;
  private static final int CLONE_REF_PATH = 4;

  private static final int VARINT = 0;
  private static final int I64 = 1;
  private static final int LEN = 2;
  private static final int I32 = 5;

  private RecordedLocations() {}

  /** A file this code cannot take apart as the layout above says: it is reported, never rewritten. */
  static final class Unreadable extends RuntimeException {
    Unreadable(String why) {
      super(why);
    }
  }

  /** Every location a manifest file records (base paths, then the inline clone's source). */
  static List<String> ofManifest(byte[] file) {
    List<String> out = new ArrayList<>();
    rewriteManifest(file, p -> {
      out.add(p);
      return p;
    });
    return out;
  }

  /** Every location a transaction file records (a clone's source). */
  static List<String> ofTransaction(byte[] file) {
    List<String> out = new ArrayList<>();
    rewriteMessage(file, TRANSACTION_CLONE, CLONE_REF_PATH, p -> {
      out.add(p);
      return p;
    });
    return out;
  }

  /**
   * {@code file} with every recorded location replaced by {@code map} of it; the same bytes when
   * {@code map} changes nothing.
   *
   * @throws Unreadable when the file is not a manifest of the layout above
   */
  static byte[] rewriteManifest(byte[] file, UnaryOperator<String> map) {
    if (file.length < FOOTER + 4 || !endsWithMagic(file)) {
      throw new Unreadable("not a Lance manifest (no LANC footer)");
    }
    ByteBuffer footer = ByteBuffer.wrap(file, file.length - FOOTER, FOOTER).order(ByteOrder.LITTLE_ENDIAN);
    long pos = footer.getLong();
    if (pos < 0 || pos > file.length - FOOTER - 4) {
      throw new Unreadable("manifest position " + pos + " outside the file");
    }
    int manifestPos = (int) pos;
    int manifestLen = u32(file, manifestPos);
    if (manifestPos + 4L + manifestLen != file.length - FOOTER) {
      throw new Unreadable("manifest length " + manifestLen + " does not reach the footer");
    }
    byte[] manifest = slice(file, manifestPos + 4, manifestLen);
    byte[] newManifest = rewriteMessage(manifest, MANIFEST_BASE_PATHS, BASE_PATH_PATH, map);

    int prefixEnd = manifestPos;
    byte[] newTransaction = null;
    long txPos = varintField(manifest, MANIFEST_TRANSACTION_SECTION);
    if (txPos >= 0) {
      if (txPos > manifestPos - 4) {
        throw new Unreadable("transaction section " + txPos + " not before the manifest");
      }
      int txLen = u32(file, (int) txPos);
      if (txPos + 4 + txLen == manifestPos) {
        // Only a section right before the manifest can change length without moving another one.
        byte[] tx = slice(file, (int) txPos + 4, txLen);
        byte[] rewritten = rewriteMessage(tx, TRANSACTION_CLONE, CLONE_REF_PATH, map);
        if (rewritten != tx) {
          newTransaction = rewritten;
          prefixEnd = (int) txPos;
        }
      } else if (!ofTransactionBytes(slice(file, (int) txPos + 4, txLen)).isEmpty()) {
        throw new Unreadable("transaction section at " + txPos + " is not right before the manifest");
      }
    }
    if (newManifest == manifest && newTransaction == null) {
      return file;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(file.length + 256);
    out.write(file, 0, prefixEnd);
    if (newTransaction != null) {
      writeU32(out, newTransaction.length);
      out.writeBytes(newTransaction);
    }
    long newManifestPos = out.size();
    writeU32(out, newManifest.length);
    out.writeBytes(newManifest);
    ByteBuffer newFooter = ByteBuffer.allocate(FOOTER).order(ByteOrder.LITTLE_ENDIAN);
    newFooter.putLong(newManifestPos);
    newFooter.put(file, file.length - 8, 8); // major, minor, magic: as they were
    out.writeBytes(newFooter.array());
    return out.toByteArray();
  }

  /**
   * A transaction file with its clone's source replaced by {@code map} of it; the same bytes when
   * nothing changes.
   */
  static byte[] rewriteTransaction(byte[] file, UnaryOperator<String> map) {
    return rewriteMessage(file, TRANSACTION_CLONE, CLONE_REF_PATH, map);
  }

  private static List<String> ofTransactionBytes(byte[] tx) {
    List<String> out = new ArrayList<>();
    rewriteMessage(tx, TRANSACTION_CLONE, CLONE_REF_PATH, p -> {
      out.add(p);
      return p;
    });
    return out;
  }

  private static boolean endsWithMagic(byte[] file) {
    for (int i = 0; i < MAGIC.length; i++) {
      if (file[file.length - MAGIC.length + i] != MAGIC[i]) {
        return false;
      }
    }
    return true;
  }

  /**
   * {@code message} with the string field {@code leaf} of every {@code outer} submessage mapped;
   * {@code message} itself (the same array) when nothing changed.
   */
  private static byte[] rewriteMessage(byte[] message, int outer, int leaf, UnaryOperator<String> map) {
    return rewriteField(message, outer, sub -> rewriteField(sub, leaf, text -> {
      String old = new String(text, StandardCharsets.UTF_8);
      String now = map.apply(old);
      return now.equals(old) ? text : now.getBytes(StandardCharsets.UTF_8);
    }));
  }

  /**
   * {@code message} with the payload of every length-delimited field {@code target} replaced by
   * {@code map}'s answer (the same array from {@code map}: unchanged); every other field is copied
   * byte for byte. {@code message} itself when nothing changed.
   */
  private static byte[] rewriteField(byte[] message, int target, UnaryOperator<byte[]> map) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(message.length + 64);
    boolean changed = false;
    Reader r = new Reader(message);
    while (r.more()) {
      int start = r.pos;
      long tag = r.varint();
      int field = (int) (tag >>> 3);
      int wire = (int) (tag & 7);
      if (field == target && wire == LEN) {
        byte[] payload = r.bytes();
        byte[] replaced = map.apply(payload);
        if (replaced != payload) {
          changed = true;
          writeVarint(out, tag);
          writeVarint(out, replaced.length);
          out.writeBytes(replaced);
          continue;
        }
      } else {
        r.skip(wire);
      }
      out.write(message, start, r.pos - start);
    }
    return changed ? out.toByteArray() : message;
  }

  /** The value of top-level varint field {@code field}, or -1 when absent. */
  private static long varintField(byte[] message, int field) {
    Reader r = new Reader(message);
    long found = -1;
    while (r.more()) {
      long tag = r.varint();
      int wire = (int) (tag & 7);
      if ((int) (tag >>> 3) == field && wire == VARINT) {
        found = r.varint();
      } else {
        r.skip(wire);
      }
    }
    return found;
  }

  private static int u32(byte[] b, int at) {
    if (at < 0 || at + 4 > b.length) {
      throw new Unreadable("length prefix at " + at + " outside the file");
    }
    long v = ByteBuffer.wrap(b, at, 4).order(ByteOrder.LITTLE_ENDIAN).getInt() & 0xFFFFFFFFL;
    if (v > b.length) {
      throw new Unreadable("section length " + v + " longer than the file");
    }
    return (int) v;
  }

  private static byte[] slice(byte[] b, int from, int len) {
    if (from < 0 || from + len > b.length) {
      throw new Unreadable("section [" + from + ", " + (from + len) + ") outside the file");
    }
    byte[] out = new byte[len];
    System.arraycopy(b, from, out, 0, len);
    return out;
  }

  private static void writeU32(ByteArrayOutputStream out, int v) {
    out.writeBytes(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(v).array());
  }

  private static void writeVarint(ByteArrayOutputStream out, long v) {
    while ((v & ~0x7FL) != 0) {
      out.write((int) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    out.write((int) v);
  }

  /** A cursor over protobuf wire format; anything malformed is {@link Unreadable}. */
  private static final class Reader {
    final byte[] b;
    int pos;

    Reader(byte[] b) {
      this.b = b;
    }

    boolean more() {
      return pos < b.length;
    }

    long varint() {
      long v = 0;
      for (int shift = 0; shift < 64; shift += 7) {
        if (pos >= b.length) {
          throw new Unreadable("truncated varint");
        }
        int x = b[pos++];
        v |= (long) (x & 0x7F) << shift;
        if ((x & 0x80) == 0) {
          return v;
        }
      }
      throw new Unreadable("varint longer than 10 bytes");
    }

    byte[] bytes() {
      long len = varint();
      if (len < 0 || pos + len > b.length) {
        throw new Unreadable("length-delimited field past the end");
      }
      byte[] out = new byte[(int) len];
      System.arraycopy(b, pos, out, 0, (int) len);
      pos += (int) len;
      return out;
    }

    void skip(int wire) {
      switch (wire) {
        case VARINT -> varint();
        case I64 -> advance(8);
        case LEN -> bytes();
        case I32 -> advance(4);
        default -> throw new Unreadable("wire type " + wire + " (groups are not in Lance's formats)");
      }
    }

    private void advance(int n) {
      if (pos + n > b.length) {
        throw new Unreadable("fixed-width field past the end");
      }
      pos += n;
    }
  }
}
