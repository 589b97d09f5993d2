package dev.omnigraph.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;

/** Runs the CLI in-process as {@code omnigraph} would, capturing its exit code and both streams. */
final class CliHarness {

  private CliHarness() {}

  /** One command's outcome. */
  record Run(int exit, String out, String err) {
    JsonNode json() throws Exception {
      return new ObjectMapper().readTree(out);
    }
  }

  static Run run(String... args) {
    PrintStream stdout = System.out;
    PrintStream stderr = System.err;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit;
    try {
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      // Usage errors raised while a command runs print through picocli's own System.err writer.
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      CommandLine cli = RootCommand.commandLine(null);
      cli.setErr(new java.io.PrintWriter(err, true, StandardCharsets.UTF_8));
      exit = cli.execute(args);
    } finally {
      System.setOut(stdout);
      System.setErr(stderr);
    }
    return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }
}
