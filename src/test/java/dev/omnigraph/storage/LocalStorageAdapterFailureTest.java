package dev.omnigraph.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.omnigraph.storage.StorageException.Kind;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Typed local failures: a permission failure is loud, never "absent". */
class LocalStorageAdapterFailureTest {

  @TempDir Path dir;

  @Test
  void anUnreadableDirectoryIsConfigurationNotAbsent() throws IOException {
    StorageConfig config = StorageConfig.local(dir);
    try (StorageAdapter store = StorageAdapters.open(config)) {
      store.putText("locked/inner/x", "x");
      Path locked = dir.resolve("locked");
      Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("---------"));
      try {
        Assumptions.assumeTrue(deniesAccess(locked.resolve("inner")),
            "permissions are not enforced for this user (running as root)");

        assertThat(kindOf(() -> store.exists("locked/inner"))).isEqualTo(Kind.CONFIGURATION);
        assertThat(kindOf(() -> store.exists("locked/inner/x"))).isEqualTo(Kind.CONFIGURATION);
        assertThat(kindOf(() -> store.readTextIfExists("locked/inner/x")))
            .isEqualTo(Kind.CONFIGURATION);
        assertThat(kindOf(() -> store.list("locked"))).isEqualTo(Kind.CONFIGURATION);
        assertThat(kindOf(() -> store.putTextIfAbsent("locked/y", "y")))
            .isEqualTo(Kind.CONFIGURATION);
      } finally {
        Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("rwx------"));
      }
    }
  }

  @Test
  void theClassifierMapsFileSystemExceptionTypes() {
    assertThat(LocalStorageAdapter.classify("op", "k", new AccessDeniedException("p")).kind())
        .isEqualTo(Kind.CONFIGURATION);
    assertThat(LocalStorageAdapter.classify("op", "k", new java.nio.file.NoSuchFileException("p"))
        .kind()).isEqualTo(Kind.NOT_FOUND);
    assertThat(LocalStorageAdapter.classify(
        "op", "k", new java.nio.file.FileAlreadyExistsException("p")).kind())
        .isEqualTo(Kind.PRECONDITION);
  }

  private static boolean deniesAccess(Path p) {
    try {
      Files.readAttributes(p, java.nio.file.attribute.BasicFileAttributes.class);
      return false;
    } catch (IOException e) {
      return true;
    }
  }

  private static Kind kindOf(ThrowingCallable call) {
    StorageException e = catchThrowableOfType(StorageException.class, call);
    assertThat(e).as("expected a StorageException").isNotNull();
    return e.kind();
  }
}
