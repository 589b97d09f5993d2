package dev.omnigraph.cli;

import dev.omnigraph.engine.ErrorKind;
import picocli.CommandLine;
import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;
import picocli.CommandLine.ParseResult;

/**
 * The CLI's exit codes: 0 success, 1 error, 2 usage, 3 conflict (409/503 class), 4 failed
 * {@code --if-commit} precondition. Engine outcomes map through {@link ErrorKind}, the one table the
 * HTTP service uses too; nothing else picks exit codes.
 */
final class ExitCodes {

  static final int OK = 0;
  static final int ERROR = ErrorKind.EXIT_ERROR;
  static final int USAGE = 2;
  static final int CONFLICT = ErrorKind.EXIT_CONFLICT;

  private ExitCodes() {}

  /** Prints one clear line on stderr instead of a stack trace, and picks the exit code. */
  static final class ExceptionHandler implements IExecutionExceptionHandler {
    @Override
    public int handleExecutionException(Exception ex, CommandLine cmd, ParseResult parseResult) {
      String message = missingFile(ex).map(f -> "file not found: " + f).orElseGet(() -> ErrorKind.of(ex).message(ex));
      cmd.getErr().println("error: " + (message == null ? ex.toString() : message));
      if (System.getenv("OMNIGRAPH_DEBUG") != null) {
        ex.printStackTrace(cmd.getErr());
      }
      return exitCode(ex);
    }
  }

  /** A file that vanished between {@link InputFiles#require} and its read, or that no option check covers. */
  private static java.util.Optional<String> missingFile(Throwable ex) {
    for (Throwable t = ex; t != null; t = t.getCause()) {
      if (t instanceof java.nio.file.NoSuchFileException f) {
        return java.util.Optional.ofNullable(f.getFile());
      }
    }
    return java.util.Optional.empty();
  }

  /**
   * A usage error, from picocli's parse or a command's own check: {@code error: omnigraph CMD:
   * problem}, then one line with the fix, exit 2. Never the whole usage: {@code --help} has it.
   */
  static final class UsageHandler implements IParameterExceptionHandler {
    @Override
    public int handleParseException(ParameterException ex, String[] args) {
      CommandLine cmd = ex.getCommandLine();
      if (!(ex instanceof UnmatchedArgumentException) && !cmd.getUnmatchedArguments().isEmpty()) {
        // A mistyped option also leaves its real one missing: the typo is the error to report.
        ex = new UnmatchedArgumentException(cmd, cmd.getUnmatchedArguments());
      }
      PrintWriter err = cmd.getErr();
      err.println("error: " + cmd.getCommandSpec().qualifiedName() + ": " + ex.getMessage());
      err.println(fix(ex, cmd));
      err.flush();
      return USAGE;
    }

    static String fix(ParameterException ex, CommandLine cmd) {
      String name = cmd.getCommandSpec().qualifiedName();
      if (ex instanceof UsageError u) {
        return u.fix();
      }
      if (ex instanceof UnmatchedArgumentException u) {
        boolean remote = u.getUnmatched().stream().anyMatch(a -> a.startsWith("--server") || a.startsWith("--graph"));
        if (remote && !cmd.getCommandSpec().optionsMap().containsKey("--server")) {
          return cmd.getCommand() instanceof NoRemoteForm n ? n.whyNoRemoteForm()
              : name + " has no --server form: name the graph root with --store URI";
        }
        java.util.List<String> near = nearest(u.getUnmatched().get(0), cmd);
        if (!near.isEmpty()) {
          return "did you mean: " + String.join(", ", near) + "? (" + name + " --help lists them)";
        }
      }
      if (!cmd.getSubcommands().isEmpty() && !(cmd.getCommand() instanceof Runnable)
          && !(cmd.getCommand() instanceof java.util.concurrent.Callable)) {
        return "name one of its commands: " + String.join(", ", cmd.getSubcommands().keySet())
            + " (" + name + " --help)";
      }
      return "see " + name + " --help for its options and an example";
    }
  }

  /** The options (or subcommands) of {@code cmd} within two edits of a mistyped {@code word}, nearest first. */
  static java.util.List<String> nearest(String word, CommandLine cmd) {
    String typed = word.contains("=") ? word.substring(0, word.indexOf('=')) : word;
    java.util.Set<String> names = new java.util.TreeSet<>(cmd.getSubcommands().keySet());
    cmd.getCommandSpec().options().stream().filter(o -> !o.hidden()).forEach(o -> names.addAll(List.of(o.names())));
    return names.stream().filter(n -> distance(typed, n) <= 2)
        .sorted(java.util.Comparator.comparingInt((String n) -> distance(typed, n))).limit(3).toList();
  }

  /** Levenshtein distance, with a swap of two neighbours counted as one edit ({@code --qeury}). */
  private static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      for (int j = 0; j <= b.length(); j++) {
        if (i == 0 || j == 0) {
          d[i][j] = i + j;
          continue;
        }
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }

  /** A command without a remote form that can say why, for the usage error of a {@code --server} given to it. */
  interface NoRemoteForm {
    String whyNoRemoteForm();
  }

  /** The exit code of an engine outcome: {@link ErrorKind}, the table the server maps from too. */
  static int exitCode(Throwable ex) {
    return ErrorKind.of(ex).exitCode();
  }
}
