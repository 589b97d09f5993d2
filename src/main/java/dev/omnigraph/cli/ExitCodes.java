package dev.omnigraph.cli;

import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

/**
 * The CLI's exit codes: 0 success, 1 error, 2 usage, 3 conflict (409/503 class), 4 failed
 * {@code --if-commit} precondition. Engine outcomes map here once; nothing else picks exit codes.
 */
final class ExitCodes {

  static final int OK = 0;
  static final int ERROR = 1;
  static final int USAGE = 2;
  static final int CONFLICT = 3;
  static final int PRECONDITION = 4;

  private ExitCodes() {}

  /** Prints one clear line on stderr instead of a stack trace, and picks the exit code. */
  static final class ExceptionHandler implements IExecutionExceptionHandler {
    @Override
    public int handleExecutionException(Exception ex, CommandLine cmd, ParseResult parseResult) {
      cmd.getErr().println("error: " + (ex.getMessage() == null ? ex.toString() : ex.getMessage()));
      if (System.getenv("OMNIGRAPH_DEBUG") != null) {
        ex.printStackTrace(cmd.getErr());
      }
      return exitCode(ex);
    }
  }

  /** The exit code of an engine outcome; the one place outcomes map to codes. */
  static int exitCode(Throwable ex) {
    if (ex instanceof dev.omnigraph.api.PreconditionFailed) {
      return PRECONDITION;
    }
    if (ex instanceof dev.omnigraph.api.Conflict
        || ex instanceof dev.omnigraph.api.KeyConflict
        || ex instanceof dev.omnigraph.api.ReadSetChanged
        || ex instanceof dev.omnigraph.api.RecoveryRequired) {
      return CONFLICT;
    }
    return ERROR;
  }
}
