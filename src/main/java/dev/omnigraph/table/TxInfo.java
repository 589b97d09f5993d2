package dev.omnigraph.table;

import java.util.Map;
import java.util.Objects;

/**
 * The Lance transaction recorded for one version of a data table.
 *
 * @param uuid the transaction's uuid (ours are pre-minted by {@link DataTables})
 * @param readVersion the version the transaction was planned against
 * @param properties its transaction properties (e.g. {@code omnigraph.insert_absence}); empty when
 *     none were recorded
 * @param operation Lance's operation name: {@code Update}, {@code Delete}, {@code Overwrite},
 *     {@code Append}, {@code Restore}, …
 * @param restoredVersion for a {@code Restore}: the version it restored; empty otherwise
 */
public record TxInfo(String uuid, long readVersion, Map<String, String> properties, String operation,
    java.util.OptionalLong restoredVersion) {

  public TxInfo(String uuid, long readVersion, Map<String, String> properties, String operation) {
    this(uuid, readVersion, properties, operation, java.util.OptionalLong.empty());
  }

  public TxInfo {
    Objects.requireNonNull(uuid, "uuid");
    properties = Map.copyOf(properties);
    Objects.requireNonNull(operation, "operation");
    Objects.requireNonNull(restoredVersion, "restoredVersion");
  }
}
