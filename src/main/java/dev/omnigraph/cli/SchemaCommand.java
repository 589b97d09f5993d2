package dev.omnigraph.cli;

import dev.omnigraph.api.OpenMode;
import dev.omnigraph.api.SchemaOutput;
import dev.omnigraph.engine.Omnigraph;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code omnigraph schema show | plan}. */
@Command(name = "schema", description = "Inspect the accepted schema and plan changes to it.",
    subcommands = {SchemaCommand.Show.class, SchemaCommand.Plan.class})
public class SchemaCommand {

  /**
   * {@code schema plan --schema F [--json]}: the migration steps from the accepted schema to F,
   * without applying anything. Exit 0 whether or not the plan is supported; the output says which.
   */
  @Command(name = "plan", description = "Show the migration steps from the accepted schema to a desired .pg file.")
  static class Plan implements Callable<Integer> {
    @Mixin GraphOptions graph;

    @Option(names = "--schema", required = true, paramLabel = "FILE", description = "The desired .pg schema.")
    java.nio.file.Path schema;

    @Option(names = "--json", description = "Print {uri, supported, step_count, steps} (reference step shapes).")
    boolean json;

    @Override
    public Integer call() throws java.io.IOException {
      String source = java.nio.file.Files.readString(schema);
      dev.omnigraph.api.SchemaPlanOutput plan;
      try (Omnigraph g = graph.open(OpenMode.READ_ONLY)) {
        plan = g.schemaPlan(source);
      }
      if (json) {
        Output.json(plan);
        return ExitCodes.OK;
      }
      System.out.println("schema plan for " + plan.uri());
      System.out.println("supported: " + (plan.supported() ? "yes" : "no"));
      if (plan.steps().isEmpty()) {
        System.out.println("no schema changes");
      }
      plan.steps().forEach(step -> System.out.println("- " + step.describe()));
      return ExitCodes.OK;
    }
  }

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
