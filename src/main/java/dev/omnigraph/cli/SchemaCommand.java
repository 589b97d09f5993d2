package dev.omnigraph.cli;

import dev.omnigraph.api.OpenMode;
import dev.omnigraph.api.SchemaOutput;
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
      var remote = graph.remote();
      SchemaOutput schema;
      if (remote.isPresent()) {
        schema = remote.get().get("/schema", SchemaOutput.class);
      } else {
        try (Omnigraph g = graph.open(OpenMode.READ_ONLY)) {
          schema = g.schema();
        }
      }
      if (json) {
        Output.json(schema);
      } else {
        System.out.print(schema.schemaSource());
      }
      return ExitCodes.OK;
    }
  }
}
