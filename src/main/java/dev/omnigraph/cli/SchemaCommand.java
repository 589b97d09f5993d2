package dev.omnigraph.cli;

import dev.omnigraph.api.OpenMode;
import dev.omnigraph.api.SchemaApplyOutput;
import dev.omnigraph.api.SchemaOutput;
import dev.omnigraph.api.SchemaStep;
import dev.omnigraph.engine.Omnigraph;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code omnigraph schema show | plan | apply}. */
@Command(name = "schema", mixinStandardHelpOptions = true, footerHeading = RootCommand.EXAMPLE,
    footer = "  omnigraph schema plan --schema new.pg --store ./g", description = "Inspect the accepted schema, plan changes to it and apply them.",
    subcommands = {SchemaCommand.Show.class, SchemaCommand.Plan.class, SchemaCommand.Apply.class})
public class SchemaCommand {

  /** The step lines shared by plan and apply: the reference CLI's {@code - <step>}, or "no schema changes". */
  private static void printSteps(List<SchemaStep> steps) {
    if (steps.isEmpty()) {
      System.out.println("no schema changes");
    }
    steps.forEach(step -> System.out.println("- " + step.describe()));
  }

  private static String yesNo(boolean value) {
    return value ? "yes" : "no";
  }

  /**
   * {@code schema plan --schema F [--json]}: the migration steps from the accepted schema to F,
   * without applying anything. Exit 0 whether or not the plan is supported; the output says which.
   */
  @Command(name = "plan", mixinStandardHelpOptions = true, footerHeading = RootCommand.EXAMPLE,
    footer = "  omnigraph schema plan --schema new.pg --json --store ./g", description = "Show the migration steps from the accepted schema to a desired .pg file.")
  static class Plan implements Callable<Integer>, ExitCodes.NoRemoteForm {
    @Mixin StoreOptions graph;

    @Option(names = "--schema", required = true, paramLabel = "FILE", description = "The desired .pg schema.")
    java.nio.file.Path schema;

    @Option(names = "--json", description = "Print {uri, supported, step_count, steps} (reference step shapes).")
    boolean json;

    @Override
    public Integer call() throws IOException {
      String source = InputFiles.read(graph.command, "--schema", schema);
      dev.omnigraph.api.SchemaPlanOutput plan;
      try (Omnigraph g = graph.open(OpenMode.READ_ONLY)) {
        plan = g.schemaPlan(source, graph.actor());
      }
      if (json) {
        Output.json(plan);
        return ExitCodes.OK;
      }
      System.out.println("schema plan for " + plan.uri());
      System.out.println("supported: " + yesNo(plan.supported()));
      printSteps(plan.steps());
      return ExitCodes.OK;
    }

    /** Not the generic "no --server form": say why, and what does work remotely. */
    @Override
    public String whyNoRemoteForm() {
      return "schema plan has no --server form: the HTTP API has no plan route (the server plans inside POST"
          + " /schema/apply). Plan against the graph root with --store, or compare 'schema show --server ...'"
          + " with the desired file";
    }
  }

  /**
   * {@code schema apply --schema F [--allow-data-loss] [--json]}: migrates main to F in one commit,
   * locally or through {@code POST /schema/apply}. Refusals exit through {@link ExitCodes}: an
   * unsupported change or a constraint existing rows break 1, other branches or a pending recovery 3.
   */
  @Command(name = "apply", mixinStandardHelpOptions = true, footerHeading = RootCommand.EXAMPLE,
    footer = "  omnigraph schema apply --schema new.pg --store ./g", description = "Apply the migration from the accepted schema to a desired .pg file"
      + " as one commit on main.")
  static class Apply implements Callable<Integer> {
    @Mixin GraphOptions graph;

    @Option(names = "--schema", required = true, paramLabel = "FILE", description = "The desired .pg schema.")
    Path schema;

    @Option(names = "--allow-data-loss", description = "Make drops hard: the earlier versions of the dropped"
        + " data are removed and time travel to before the apply can no longer read them (irreversible).")
    boolean allowDataLoss;

    @Option(names = "--json", description = "Print the reference SchemaApplyOutput JSON.")
    boolean json;

    /** What the hard drops dropped, in the user's terms: dataset paths alone do not say which type they held. */
    private static List<String> hardDrops(List<SchemaStep> steps) {
      List<String> out = new java.util.ArrayList<>();
      for (SchemaStep step : steps) {
        if (step instanceof SchemaStep.DropType d && d.mode() == SchemaStep.DropMode.HARD) {
          out.add(d.typeKind().wire() + " type '" + d.name() + "'");
        } else if (step instanceof SchemaStep.DropProperty d && d.mode() == SchemaStep.DropMode.HARD) {
          out.add("property '" + d.typeName() + "." + d.propertyName() + "'");
        }
      }
      return out;
    }

    @Override
    public Integer call() throws IOException {
      String source = InputFiles.read(graph.command, "--schema", schema);
      var remote = graph.remote();
      SchemaApplyOutput out;
      if (remote.isPresent()) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("schema_source", source);
        body.put("allow_data_loss", allowDataLoss);
        out = remote.get().post("/schema/apply", body, Map.of(), SchemaApplyOutput.class);
      } else {
        try (Omnigraph g = graph.open(OpenMode.READ_WRITE)) {
          out = g.schemaApply(source, allowDataLoss, graph.actor());
        }
      }
      if (!out.hardDropped().isEmpty()) {
        // On stderr, so --json output stays one document; printed with it because it cannot be undone.
        System.err.println("warning: --allow-data-loss dropped " + String.join(", ", hardDrops(out.steps()))
            + " for good: every version before this apply of datasets " + String.join(", ", out.hardDropped())
            + " was removed (a dropped type's dataset entirely), so time travel to before this apply can no"
            + " longer read them (irreversible)");
      }
      if (json) {
        Output.json(out);
        return ExitCodes.OK;
      }
      System.out.println("schema apply for " + out.uri());
      System.out.println("supported: " + yesNo(out.supported()));
      System.out.println("applied: " + yesNo(out.applied()));
      System.out.println("graph_manifest_version: " + out.graphManifestVersion());
      printSteps(out.steps());
      return ExitCodes.OK;
    }
  }

  @Command(name = "show", mixinStandardHelpOptions = true, footerHeading = RootCommand.EXAMPLE,
    footer = "  omnigraph schema show --store ./g", description = "Print the accepted .pg schema.")
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
          schema = g.schema(graph.actor());
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
