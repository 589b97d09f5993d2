package dev.omnigraph.storage;

import dev.omnigraph.api.storage.StorageException;
import dev.omnigraph.api.storage.StorageConfig;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * Runs adapter operations against a {@code chmod 000} directory and prints each outcome, for
 * {@link LocalStorageAdapterFailureTest} to run as an unprivileged user when the suite runs as
 * root (root bypasses permission bits). Output: one {@code op=KIND} or {@code op=ok:value} line each.
 */
public final class PermissionProbeMain {

  private PermissionProbeMain() {}

  public static void main(String[] args) {
    try (LocalStorageAdapter store = new LocalStorageAdapter(StorageConfig.local(Path.of(args[0])))) {
      report("exists-prefix", () -> store.exists("locked/inner"));
      report("exists-object", () -> store.exists("locked/inner/x"));
      report("readTextIfExists", () -> store.readTextIfExists("locked/inner/x"));
      report("list", () -> store.list("locked"));
      report("putIfAbsent", () -> {
        store.putTextIfAbsent("locked/y", "y");
        return "done";
      });
      report("control", () -> store.readTextIfExists("open/z"));
    }
  }

  private static void report(String op, Supplier<Object> action) {
    try {
      System.out.println(op + "=ok:" + action.get());
    } catch (StorageException e) {
      System.out.println(op + "=" + e.kind());
    }
  }
}
