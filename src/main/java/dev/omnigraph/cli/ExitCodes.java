package dev.omnigraph.cli;

import dev.omnigraph.engine.ErrorKind;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
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
      String message = ErrorKind.of(ex).message(ex);
      cmd.getErr().println("error: " + (message == null ? ex.toString() : message));
      if (System.getenv("OMNIGRAPH_DEBUG") != null) {
        ex.printStackTrace(cmd.getErr());
      }
      return exitCode(ex);
    }
  }

  /** The exit code of an engine outcome: {@link ErrorKind}, the table the server maps from too. */
  static int exitCode(Throwable ex) {
    return ErrorKind.of(ex).exitCode();
  }
}
