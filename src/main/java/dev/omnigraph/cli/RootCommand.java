package dev.omnigraph.cli;

import picocli.CommandLine.Command;

/** {@code omnigraph}: the top of the command tree. */
@Command(
    name = "omnigraph",
    mixinStandardHelpOptions = true,
    versionProvider = VersionCommand.Provider.class,
    description = "Versioned, branchable property-graph store on Lance.",
    subcommands = {VersionCommand.class, ServeCommand.class, InitCommand.class, SnapshotCommand.class,
        BranchCommand.class, CommitCommand.class, SchemaCommand.class, LoadCommand.class, MutateCommand.class,
        QueryCommand.class, ExportCommand.class, DoctorCommand.class, RepairCommand.class, CleanupCommand.class, RecoverCommand.class,
        OptimizeCommand.class, IndexCommand.class, QueriesCommand.class, ChangesCommand.class, LeaseCommand.class})
public class RootCommand {}
