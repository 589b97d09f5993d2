package dev.omnigraph.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code omnigraph}: the top of the command tree. */
@Command(
    name = RootCommand.NAME,
    mixinStandardHelpOptions = true,
    versionProvider = VersionCommand.Provider.class,
    description = "Versioned, branchable property-graph store on Lance.",
    footerHeading = RootCommand.EXAMPLE,
    footer = {"  omnigraph init --schema people.pg ./g && omnigraph snapshot --store ./g",
        "Every command takes -h/--help: omnigraph COMMAND --help."},
    subcommands = {VersionCommand.class, ServeCommand.class, InitCommand.class, SnapshotCommand.class,
        BranchCommand.class, CommitCommand.class, SchemaCommand.class, LoadCommand.class, MutateCommand.class,
        QueryCommand.class, ExportCommand.class, DoctorCommand.class, RepairCommand.class, CleanupCommand.class, RecoverCommand.class,
        OptimizeCommand.class, IndexCommand.class, RevertCommand.class, BlobCommand.class, QueriesCommand.class, ChangesCommand.class, LeaseCommand.class,
        GqtCommand.class, RelocateCommand.class, PolicyCommand.class})
public class RootCommand {

  /** The launcher's name (bin/omnigraph): synopses, usage errors and printed next commands all use it. */
  static final String NAME = "omnigraph";

  /** The footer heading of every command's usage, above its example. */
  static final String EXAMPLE = "%nExample:%n";

  /**
   * The command tree as every entry point runs it (the jar, BootSettings' pre-boot parse, the
   * tests): one place decides how errors print and what each command's help offers.
   *
   * @param factory Quarkus' factory in the jar; {@code null} for picocli's own
   */
  static CommandLine commandLine(CommandLine.IFactory factory) {
    CommandLine cli = factory == null ? new CommandLine(RootCommand.class) : new CommandLine(RootCommand.class, factory);
    // Every command mixes in the standard -h/-V: -V answers the same version wherever it is given.
    var version = cli.getCommandSpec().versionProvider();
    forEach(cli, c -> c.getCommandSpec().versionProvider(version));
    cli.setExecutionExceptionHandler(new ExitCodes.ExceptionHandler());
    cli.setParameterExceptionHandler(new ExitCodes.UsageHandler());
    return cli;
  }

  /** {@code command} and every command below it. */
  static void forEach(CommandLine command, java.util.function.Consumer<CommandLine> action) {
    action.accept(command);
    command.getSubcommands().values().forEach(sub -> forEach(sub, action));
  }
}
