package dev.omnigraph.table;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What OmniGraph knows of a Lance dataset's files, for maintenance that must tell a dataset's own
 * files from residue without asking Lance (lance-java 7.0.0 has no call that names a version's
 * transaction file, and {@code readTransaction()} on a branch's first version aborts the JVM; see
 * {@link DataTables#transactionAt}). Pure functions over names and bytes: the caller reads them
 * through the storage adapter, so nothing here opens a dataset or writes.
 *
 * <p>The layout, as lance 7.0 writes it (format 2.1): {@code _versions/<n>.manifest} (the V2 naming
 * stores {@code u64::MAX - version} zero-padded to 20 digits, so the newest sorts first; the V1
 * naming stores the version), {@code _versions/latest_version_hint.json}, {@code _transactions/
 * <read_version>-<uuid>.txn}, {@code data/}, {@code _deletions/}, {@code _indices/}, {@code _refs/}
 * (tags and branches) and {@code tree/<branch>/} (a branch's own versions, transactions and data).
 */
public final class LanceFiles {

  /** The entries Lance itself makes directly under a dataset (or a branch's tree) directory. */
  public static final Set<String> DATASET_ENTRIES =
      Set.of("_versions", "_transactions", "data", "_deletions", "_indices", "_refs", "tree", "_latest.manifest");

  /** A transaction file's name: the version it was planned on, then its uuid. */
  private static final Pattern TRANSACTION_FILE = Pattern.compile("(\\d{1,20})-(" + Uuid.SHAPE + ")\\.txn");

  /** A transaction file name inside a manifest's bytes: only its uuid is matched (see below). */
  private static final Pattern NAMED_TRANSACTION = Pattern.compile("-(" + Uuid.SHAPE + ")\\.txn");

  private static final class Uuid {
    static final String SHAPE = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
  }

  private static final Pattern MANIFEST_FILE = Pattern.compile("(\\d{1,20})\\.manifest");

  /** Digits of a V2 manifest name: {@code u64::MAX - version}, always 20 wide. */
  private static final int V2_WIDTH = 20;

  private LanceFiles() {}

  /**
   * A transaction file's name, parsed.
   *
   * @param readVersion the version it was planned on
   * @param uuid the transaction's uuid
   */
  public record TransactionFile(long readVersion, String uuid) {}

  /** The read version and uuid a transaction file's name records; empty when the name is not one. */
  public static Optional<TransactionFile> transactionFile(String fileName) {
    Matcher m = TRANSACTION_FILE.matcher(fileName);
    if (!m.matches()) {
      return Optional.empty();
    }
    try {
      return Optional.of(new TransactionFile(Long.parseUnsignedLong(m.group(1)), m.group(2)));
    } catch (NumberFormatException tooLarge) {
      return Optional.empty();
    }
  }

  /** The version a {@code _versions/} file's name stores (either naming); empty when not one. */
  public static OptionalLong manifestVersion(String fileName) {
    Matcher m = MANIFEST_FILE.matcher(fileName);
    if (!m.matches()) {
      return OptionalLong.empty();
    }
    try {
      long n = Long.parseUnsignedLong(m.group(1));
      // V2 names are exactly 20 digits (u64::MAX - version); a V1 version never reaches 20 digits.
      return OptionalLong.of(m.group(1).length() == V2_WIDTH ? -1L - n : n);
    } catch (NumberFormatException tooLarge) {
      return OptionalLong.empty();
    }
  }

  /**
   * The uuid of the transaction a manifest's bytes name. Lance stores the name
   * ({@code <read_version>-<uuid>.txn}) as the manifest's {@code transaction_file} string field, and
   * a protobuf string is its UTF-8 bytes verbatim, so it is found by its exact shape (a 36-character
   * uuid cannot occur by accident). Only the uuid is taken: the byte before the read version is the
   * field's length, which can itself be an ASCII digit. Empty for a manifest that names none, or
   * more than one (not a shape this reading understands).
   */
  public static Optional<String> transactionUuidOf(byte[] manifest) {
    Set<String> found = new LinkedHashSet<>();
    Matcher m = NAMED_TRANSACTION.matcher(new String(manifest, StandardCharsets.ISO_8859_1));
    while (m.find()) {
      found.add(m.group(1));
    }
    return found.size() == 1 ? Optional.of(found.iterator().next()) : Optional.empty();
  }
}
