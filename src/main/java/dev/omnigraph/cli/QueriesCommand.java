package dev.omnigraph.cli;

import dev.omnigraph.api.InvalidRequest;
import dev.omnigraph.api.QueriesCatalogOutput;
import dev.omnigraph.engine.StoredQueries;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code omnigraph queries list}: a graph's stored-query catalog. Remote ({@code --server URL --graph
 * ID}) it is {@code GET /graphs/{id}/queries}. Stored queries are server configuration
 * ({@code omnigraph.graphs.<id>.queries}), not graph data, so the local form takes the {@code .gq}
 * files themselves ({@code --query F}, repeatable) and lists the catalog a server configured with them
 * would serve, with the same load checks (a parse error or a name declared twice is exit 1).
 */
@Command(name = "queries", mixinStandardHelpOptions = true, footerHeading = RootCommand.EXAMPLE,
    footer = "  omnigraph queries list --query people.gq", description = "Stored queries.", subcommands = QueriesCommand.ListCommand.class)
public class QueriesCommand {

  /** {@code queries list}. */
  @Command(name = "list", mixinStandardHelpOptions = true, footerHeading = RootCommand.EXAMPLE,
    footer = "  omnigraph queries list --server http://127.0.0.1:8080 --graph default", description = "List the stored-query catalog (reference QueriesCatalogOutput).")
  public static class ListCommand implements Callable<Integer> {

    @Mixin GraphOptions graph;

    @Option(names = "--query", paramLabel = "FILE",
        description = "A .gq file of the catalog (repeatable); the local form, instead of --server.")
    List<Path> files;

    @Option(names = "--json", description = "Print the reference QueriesCatalogOutput JSON.")
    boolean json;

    @Override
    public Integer call() {
      var remote = graph.remote();
      QueriesCatalogOutput catalog;
      if (remote.isPresent()) {
        if (files != null) {
          throw new InvalidRequest("--query lists local files; with --server the catalog is the server's");
        }
        catalog = remote.get().get("/queries", QueriesCatalogOutput.class);
      } else {
        if (files == null || files.isEmpty()) {
          throw new InvalidRequest("give --server URL --graph ID, or the catalog's .gq files with --query FILE");
        }
        files.forEach(f -> InputFiles.require(graph.command, "--query", f));
        try {
          catalog = StoredQueries.load(files).catalog();
        } catch (IllegalArgumentException e) {
          throw new InvalidRequest(e.getMessage());
        }
      }
      if (json) {
        Output.json(catalog);
        return ExitCodes.OK;
      }
      for (QueriesCatalogOutput.Entry e : catalog.queries()) {
        System.out.printf("%-24s %-8s %s%n", e.name(), e.mutation() ? "mutation" : "read",
            e.params().stream().map(QueriesCommand::spell).collect(Collectors.joining(", ")));
      }
      return ExitCodes.OK;
    }
  }

  private static String spell(QueriesCatalogOutput.Param p) {
    String kind = switch (p.kind()) {
      case "list" -> "[" + p.itemKind() + "]";
      case "vector" -> "vector(" + p.vectorDim() + ")";
      default -> p.kind();
    };
    return "$" + p.name() + ": " + kind + (p.nullable() ? "?" : "");
  }
}
