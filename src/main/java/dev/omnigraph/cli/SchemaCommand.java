package dev.omnigraph.cli;

import dev.omnigraph.api.OpenMode;
import dev.omnigraph.engine.Omnigraph;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code omnigraph schema show}. */
@Command(name = "schema", description = "Inspect the accepted schema.", subcommands = {SchemaCommand.Show.class})
public class SchemaCommand {

  @Command(name = "show", description = "Print the accepted .pg schema.")
  static class Show implements Callable<Integer> {
    @Mixin GraphOptions graph;

    @Option(names = "--json", description = "Print the reference SchemaOutput JSON.")
    boolean json;

    @Override
    public Integer call() {
      try (Omnigraph g = graph.open(OpenMode.READ_ONLY)) {
        if (json) {
          Output.json(g.schema());
        } else {
          System.out.print(g.schema().schemaSource());
        }
      }
      return ExitCodes.OK;
    }
  }
}
