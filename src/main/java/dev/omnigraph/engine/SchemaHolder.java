package dev.omnigraph.engine;

import dev.omnigraph.read.CheckedReads;
import dev.omnigraph.storage.StorageAdapter;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The accepted schema contract as this process last read or accepted it, shared by every handle on
 * one canonical root (as the gates are; a part of {@link GraphRoot}): a schema apply through one handle is what every other
 * handle of the process plans with next, never a warm copy of the old one. Another process's apply
 * is caught by the writers' revalidation of the live identity ({@code ReadSetChanged} on
 * {@code schema}) and picked up by the next open or {@link #reload}.
 */
final class SchemaHolder {

  private final AtomicReference<SchemaContract> current = new AtomicReference<>();
  /** Reads checked against this root's schemas, keyed by schema identity (so an apply needs no flush). */
  private final CheckedReads checkedReads = new CheckedReads();

  /** Empty until the root's first open reads the contract ({@link #set}). */
  SchemaHolder() {}

  /** The contract to plan with now. */
  SchemaContract current() {
    return Objects.requireNonNull(current.get(), "no schema contract loaded");
  }

  /** The root's checked reads. */
  CheckedReads checkedReads() {
    return checkedReads;
  }

  /** Records {@code contract} as the accepted one (after an open's read or an apply's promotion). */
  void set(SchemaContract contract) {
    current.set(Objects.requireNonNull(contract));
  }

  /** Re-reads the accepted contract from storage and records it. */
  SchemaContract reload(StorageAdapter storage) {
    SchemaContract read = SchemaContract.read(storage);
    set(read);
    return read;
  }
}
