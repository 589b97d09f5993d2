package dev.omnigraph.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The files a command reads (--schema, --data, --query): checked before anything is opened, so a
 * mistyped path is a usage error naming the path, not an I/O error after the graph was touched.
 */
final class InputFiles {

  private InputFiles() {}

  /** Fails with {@code file not found: PATH} (exit 2) unless {@code file} is a readable regular file. */
  static void require(CommandSpec command, String option, Path file) {
    if (Files.isRegularFile(file) && Files.isReadable(file)) {
      return;
    }
    String problem = Files.isDirectory(file) ? "not a file: " + file
        : Files.exists(file) ? "file not readable: " + file : "file not found: " + file;
    throw new UsageError(command.commandLine(), problem, option + " takes a file; a relative path starts at "
        + Path.of("").toAbsolutePath());
  }

  /** The UTF-8 text of a file {@link #require} accepts. */
  static String read(CommandSpec command, String option, Path file) throws IOException {
    require(command, option, file);
    return Files.readString(file);
  }
}
