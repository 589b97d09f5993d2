package dev.omnigraph.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.omnigraph.api.OpenMode;
import dev.omnigraph.api.ChangeOutput;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.engine.WriteOutputs;
import dev.omnigraph.api.WriteResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code omnigraph mutate NAME --query F [--params JSON] [--branch B] [--if-commit ID]}. */
@Command(name = "mutate", mixinStandardHelpOptions = true, footerHeading = RootCommand.EXAMPLE,
    footer = "  omnigraph mutate add_person --query people.gq --params '{\"name\":\"ann\"}' --store ./g", description = "Run a .gq mutation as one graph commit.")
public class MutateCommand implements Callable<Integer> {

  @Mixin GraphOptions graph;

  @Parameters(index = "0", paramLabel = "NAME", description = "The mutation declared in the query file.")
  String name;

  @Option(names = "--query", required = true, paramLabel = "FILE", description = "The .gq file.")
  Path query;

  @Option(names = "--params", defaultValue = "{}", paramLabel = "JSON", description = "Parameters as a JSON object.")
  String params;

  @Option(names = "--branch", defaultValue = "main") String branch;

  @Option(names = "--if-commit", paramLabel = "ID", converter = CommitIdConverter.class,
      description = "Run only if the branch head is this commit.")
  dev.omnigraph.api.CommitId ifCommit;

  @Option(names = "--json", description = "Print the result as JSON.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    String source = InputFiles.read(graph.command, "--query", query);
    JsonNode bound = ParamsJson.parse(params);
    var remote = graph.remote();
    if (remote.isPresent()) {
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("query", source);
      body.put("name", name);
      body.put("params", bound);
      body.put("branch", branch);
      print(ifCommit == null
          ? remote.get().post("/mutate", body, Map.of(), ChangeOutput.class)
          : remote.get().post("/mutate/if-graph-commit", body, Map.of("Omnigraph-If-Graph-Commit", ifCommit.value()),
              ChangeOutput.class));
      return ExitCodes.OK;
    }
    try (Omnigraph g = graph.open(OpenMode.READ_WRITE)) {
      WriteResult r = g.mutate(dev.omnigraph.api.BranchName.existing(branch), source, name, bound, graph.actor(),
          Optional.ofNullable(ifCommit));
      print(WriteOutputs.change(g, branch, name, graph.actor(), r));
    }
    return ExitCodes.OK;
  }

  /** {@code --json}: the reference {@code ChangeOutput}, locally and remotely alike. */
  private void print(ChangeOutput out) {
    if (json) {
      Output.json(out);
    } else if (out.commit() == null) {
      System.out.println("nothing changed");
    } else {
      System.out.println("committed " + out.commit().graphCommitId() + " on " + out.branch() + " ("
          + out.affectedNodes() + " nodes, " + out.affectedEdges() + " edges)");
    }
  }
}
