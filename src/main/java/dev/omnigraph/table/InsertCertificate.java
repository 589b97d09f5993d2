package dev.omnigraph.table;

import static dev.omnigraph.table.LanceCall.lance;

import dev.omnigraph.api.storage.StorageConfig;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.lance.Dataset;
import org.lance.FragmentMetadata;
import org.lance.Transaction;
import org.lance.operation.Operation;
import org.lance.operation.Update;
import org.lance.schema.LanceSchema;

/**
 * The insertion-absence certificate: the transaction properties a certified insert carries, the
 * checks of a transaction's shape that Java can express, and their re-check from persisted history
 * (docs/lance-write-layer.md, "The insertion-absence certificate"). Reached through
 * {@link DataTables#insertCertificate()}.
 */
public final class InsertCertificate {

  /** Transaction property carrying the insertion-absence certificate. */
  public static final String INSERT_ABSENCE = "omnigraph.insert_absence";

  /** The only certificate version this code mints or accepts. */
  public static final String INSERT_ABSENCE_V1 = "v1";

  /**
   * Transaction property binding the certificate to the parent version absence was proven
   * against (decimal). Lance rewrites a rebased transaction's recorded read version to its new
   * parent, so the recorded read version alone cannot tell a certified insert from one Lance
   * rebased over a foreign commit; this property can (docs/lance-write-layer.md).
   */
  public static final String INSERT_ABSENCE_PARENT = "omnigraph.insert_absence.read_version";

  private final StorageConfig config;

  /** The root's Lance session and table-branch answers, shared with every handle of the root. */
  private final LanceRoot lance;

  InsertCertificate(StorageConfig config, LanceRoot lance) {
    this.lance = lance;
    this.config = config;
  }

  /** The properties that certify an insert whose absence was proven on {@code readVersion}. */
  static Map<String, String> properties(long readVersion) {
    return Map.of(INSERT_ABSENCE, INSERT_ABSENCE_V1, INSERT_ABSENCE_PARENT, Long.toString(readVersion));
  }

  /**
   * Re-checks, from persisted history, the insertion-absence certificate of {@code version} of the
   * branch: the transaction must carry {@code omnigraph.insert_absence = v1}, have been planned on
   * exactly {@code version - 1} both by Lance's record and by {@link #INSERT_ABSENCE_PARENT} (the
   * latter is what exposes a transaction Lance rebased), and be a pure insertion: an {@code Update} in RewriteRows mode with
   * no removed or updated fragments, no modified fields, {@code fieldsForPreservingFragBitmap} equal
   * to the full nested field preorder of the table schema, at least one new fragment, no deletion
   * file on any new fragment, and new physical rows equal to the live-row growth from
   * {@code version - 1}. (Lance's exact-id inserted-rows filter cannot be checked: lance-java 7.0.0
   * cannot write it; see docs/lance-write-layer.md.)
   *
   * @return the failed checks; empty when the certificate holds
   */
  public List<String> violations(TableAt certified) {
    return lance(() -> {
      // Exact versions never change: the shared pinned handles serve both, with no fresh open.
      try (TableHandle h = TableHandle.open(lance, config, certified)) {
        Dataset at = h.table;
        Optional<Transaction> read = LanceSupport.readTransaction(at);
        if (read.isEmpty()) {
          return List.of("version " + certified.version() + " has no recorded transaction");
        }
        try (Transaction tx = read.get()) {
          List<String> violations = new ArrayList<>();
          Map<String, String> properties = tx.transactionProperties().orElse(Map.of());
          String property = properties.get(INSERT_ABSENCE);
          if (!INSERT_ABSENCE_V1.equals(property)) {
            violations.add(INSERT_ABSENCE + " is " + property + ", not " + INSERT_ABSENCE_V1);
          }
          if (tx.readVersion() != certified.version() - 1) {
            violations.add("planned on version " + tx.readVersion() + ", not the parent " + (certified.version() - 1));
          }
          String provenOn = properties.get(INSERT_ABSENCE_PARENT);
          if (!Long.toString(certified.version() - 1).equals(provenOn)) {
            // A rebased insert: Lance moved it (and its recorded read version) onto a parent that
            // absence was never proven against.
            violations.add("absence was proven on version " + provenOn + ", not the parent " + (certified.version() - 1));
          }
          if (certified.version() <= 1) {
            violations.add("version " + certified.version() + " has no parent version");
            return violations;
          }
          long growth;
          try (TableHandle parent = TableHandle.open(lance, config, certified.ref().at(certified.version() - 1))) {
            growth = at.countRows() - parent.table.countRows();
          }
          violations.addAll(shapeViolations(
              tx.operation(), at.getLanceSchema(), growth, tx.uuid(), tx.readVersion()));
          return violations;
        }
      }
    });
  }

  /**
   * The certificate checks on a transaction's shape (docs/lance-write-layer.md, "The insertion-absence
   * certificate"), less
   * the exact-id filter Java cannot write: the caller adds what only it knows.
   */
  static List<String> shapeViolations(
      Operation operation, LanceSchema schema, long expectedRows, String uuid, long readVersion) {
    List<String> violations = new ArrayList<>();
    if (uuid == null || uuid.isEmpty()) {
      violations.add("empty transaction uuid");
    }
    if (readVersion < 1) {
      violations.add("no parent read version");
    }
    if (!(operation instanceof Update update)) {
      violations.add("operation is " + operation.name() + ", not Update");
      return violations;
    }
    if (!update.updateMode().equals(Optional.of(Update.UpdateMode.RewriteRows))) {
      violations.add("update mode is " + update.updateMode() + ", not RewriteRows");
    }
    if (!update.removedFragmentIds().isEmpty()) {
      violations.add("removes fragments " + update.removedFragmentIds());
    }
    if (!update.updatedFragments().isEmpty()) {
      violations.add("updates " + update.updatedFragments().size() + " existing fragment(s)");
    }
    if (update.fieldsModified().length != 0) {
      violations.add("modifies fields " + Arrays.toString(update.fieldsModified()));
    }
    long[] preorder = LanceSupport.fieldIdsPreorder(schema);
    if (!Arrays.equals(update.fieldsForPreservingFragBitmap(), preorder)) {
      violations.add("fieldsForPreservingFragBitmap " + Arrays.toString(update.fieldsForPreservingFragBitmap())
          + " is not the schema's full preorder " + Arrays.toString(preorder));
    }
    if (update.newFragments().isEmpty()) {
      violations.add("no new fragment");
    }
    long physical = 0;
    for (FragmentMetadata fragment : update.newFragments()) {
      physical += fragment.getPhysicalRows();
      if (fragment.getDeletionFile() != null) {
        violations.add("new fragment " + fragment.getId() + " has a deletion file");
      }
    }
    if (physical != expectedRows) {
      violations.add("new fragments hold " + physical + " physical rows, not " + expectedRows);
    }
    return violations;
  }
}
