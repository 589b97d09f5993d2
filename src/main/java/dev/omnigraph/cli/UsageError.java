package dev.omnigraph.cli;

import picocli.CommandLine;

/**
 * A usage error found while a command runs (exit 2): what is wrong, and the one line that fixes it.
 * Picocli's own parse errors carry no fix; {@link ExitCodes.UsageHandler} derives one for them.
 */
final class UsageError extends CommandLine.ParameterException {

  private final String fix;

  UsageError(CommandLine command, String message, String fix) {
    super(command, message);
    this.fix = fix;
  }

  String fix() {
    return fix;
  }
}
