package dev.omnigraph.storage;

import dev.omnigraph.api.storage.StorageException;
import dev.omnigraph.api.storage.StorageConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.omnigraph.api.storage.StorageException.Kind;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Typed local failures: a permission failure is loud, never "absent". */
class LocalStorageAdapterFailureTest {

  @TempDir Path dir;

  /**
   * A permission failure is CONFIGURATION, never absent or false. Root ignores permission bits, so
   * under root the probe runs in a child JVM as {@code nobody} (setpriv), against a directory only
   * root may enter; otherwise it runs as the current user against a {@code chmod 000} directory.
   */
  @Test
  void anUnreadableDirectoryIsConfigurationForAnUnprivilegedProcess() throws Exception {
    Path base = Files.createTempDirectory(Path.of("/tmp"), "perm-probe");
    try {
      Files.setPosixFilePermissions(base, PosixFilePermissions.fromString("rwxr-xr-x"));
      Path root = base.resolve("root");
      Files.createDirectories(root.resolve("locked/inner"));
      Files.writeString(root.resolve("locked/inner/x"), "x");
      Files.createDirectories(root.resolve("open"));
      Files.writeString(root.resolve("open/z"), "z");
      // Only the storage classes, the api values they use (api.storage.StorageConfig and the errors)
      // and the probe, copied where an unprivileged user can read them.
      Path cp = base.resolve("cp/dev/omnigraph/storage");
      Path classRoot = Path.of(StorageConfig.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      for (String pkg : java.util.List.of("dev/omnigraph/storage", "dev/omnigraph/api")) {
        Path from = classRoot.resolve(pkg);
        try (var files = Files.walk(from)) {
          for (Path f : files.toList()) {
            Path to = base.resolve("cp").resolve(pkg).resolve(from.relativize(f).toString());
            if (Files.isDirectory(f)) {
              Files.createDirectories(to);
            } else {
              Files.copy(f, to);
            }
          }
        }
      }
      Path testClasses = Path.of(PermissionProbeMain.class.getProtectionDomain().getCodeSource().getLocation().toURI())
          .resolve("dev/omnigraph/storage");
      Files.copy(testClasses.resolve("PermissionProbeMain.class"), cp.resolve("PermissionProbeMain.class"));
      try (var walk = Files.walk(base)) {
        for (Path p : walk.toList()) {
          Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(Files.isDirectory(p) ? "rwxrwxrwx" : "rw-rw-rw-"));
        }
      }
      Files.setPosixFilePermissions(root.resolve("locked"), PosixFilePermissions.fromString("rwx------"));

      boolean root0 = "root".equals(System.getProperty("user.name"));
      java.util.List<String> cmd = new java.util.ArrayList<>();
      if (root0) {
        cmd.addAll(java.util.List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"));
      } else {
        Files.setPosixFilePermissions(root.resolve("locked"), PosixFilePermissions.fromString("---------"));
      }
      cmd.addAll(java.util.List.of(ProcessHandle.current().info().command().orElse("java"),
          "-cp", base.resolve("cp").toString(), PermissionProbeMain.class.getName(), root.toString()));
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes());
      assertThat(p.waitFor()).as(out).isZero();
      assertThat(out.lines().toList()).containsExactly(
          "exists-prefix=CONFIGURATION",
          "exists-object=CONFIGURATION",
          "readTextIfExists=CONFIGURATION",
          "list=CONFIGURATION",
          "putIfAbsent=CONFIGURATION",
          "control=ok:Optional[z]");
    } finally {
      try (var walk = Files.walk(base)) {
        for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
          Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwx------"));
          Files.delete(p);
        }
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

  private static Kind kindOf(ThrowingCallable call) {
    StorageException e = catchThrowableOfType(StorageException.class, call);
    assertThat(e).as("expected a StorageException").isNotNull();
    return e.kind();
  }
}
