package dev.omnigraph.cli;

import dev.omnigraph.api.OpenMode;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.api.storage.StorageConfig;
import java.util.Optional;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * How a command that works on a graph root only names its graph: {@code --store URI} (a local path
 * or {@code s3://bucket/prefix}). Commands that also have a remote form take {@link GraphOptions},
 * which adds {@code --server}/{@code --graph}; a command lists only the options that work there.
 */
public class StoreOptions {

  /** The environment, replaceable by tests (a JVM cannot change its own). */
  static java.util.function.Function<String, String> env = System::getenv;

  /** The command this mixin belongs to: usage errors name it ({@code omnigraph init}, not the mixin). */
  @Spec(Spec.Target.MIXEE) CommandSpec command;

  @Option(names = "--store", paramLabel = "URI", description = "Graph root: a directory or s3://bucket/prefix.")
  String store;

  @Option(names = {"--as", "--actor"}, paramLabel = "ACTOR",
      description = "Actor id: recorded in the commit lineage, and the actor a --policy decides for"
          + " (default $OMNIGRAPH_ACTOR).")
  String actor;

  @Option(names = "--policy", paramLabel = "FILE",
      description = "Authorization policy (YAML) this graph's commands obey; they then need --as ACTOR"
          + " (default $OMNIGRAPH_POLICY_FILE).")
  String policy;

  StorageConfig config(String positional) {
    String uri = store != null ? store : positional;
    if (uri == null || uri.isBlank()) {
      throw new UsageError(command.commandLine(), "missing --store URI",
          "name the graph root: " + command.qualifiedName() + " --store DIR (or s3://bucket/prefix)");
    }
    return configAt(uri);
  }

  /** The storage of the root at {@code uri} (a path or {@code s3://…}), credentials from {@link #env}. */
  StorageConfig configAt(String uri) {
    return StorageConfig.fromEnvironment(uri, new java.util.AbstractMap<String, String>() {
      // A view of {@link #env}: StorageConfig only looks names up, so tests can point it at a store.
      @Override
      public String get(Object name) {
        return name instanceof String n ? env.apply(n) : null;
      }

      @Override
      public java.util.Set<Entry<String, String>> entrySet() {
        return java.util.Set.of();
      }
    });
  }

  Omnigraph open(OpenMode mode) {
    return open(config(null), mode);
  }

  /**
   * Opens the graph at {@code config}, gated by the policy of {@code --policy} or
   * {@code $OMNIGRAPH_POLICY_FILE} when one is named (then every command needs {@code --as ACTOR}),
   * open otherwise. The policy is read before the graph is opened, so a broken one opens nothing.
   *
   * @throws dev.omnigraph.api.policy.PolicyRefused when the named policy cannot be used as written
   */
  Omnigraph open(StorageConfig config, OpenMode mode) {
    dev.omnigraph.engine.policy.PolicyGate gate = gate();
    return Omnigraph.open(config, mode).gatedBy(gate);
  }

  /** The gate of {@code --policy} / {@code $OMNIGRAPH_POLICY_FILE}; open without either. */
  dev.omnigraph.engine.policy.PolicyGate gate() {
    String file = policy != null ? policy : env.apply("OMNIGRAPH_POLICY_FILE");
    if (file == null || file.isBlank()) {
      return dev.omnigraph.engine.policy.PolicyGate.OPEN;
    }
    return dev.omnigraph.engine.policy.PolicyGate.enforcing(dev.omnigraph.engine.policy.Policy.load(java.nio.file.Path.of(file)));
  }

  Optional<String> actor() {
    return Optional.ofNullable(actor).or(() -> Optional.ofNullable(env.apply("OMNIGRAPH_ACTOR")))
        .filter(a -> !a.isBlank());
  }

  /**
   * This command as the user can run it again on the same graph: the launcher's name, the command
   * path and the graph options given. Hints that print a next command (a page's {@code more:} line)
   * start from it, so they always spell the command as {@code --help} does.
   */
  String again() {
    StringBuilder cmd = new StringBuilder(command.qualifiedName());
    if (store != null) {
      cmd.append(" --store ").append(shellWord(store));
    }
    return cmd.toString();
  }

  /** {@code s} as one POSIX shell word: as is when plainly safe, else single-quoted. */
  static String shellWord(String s) {
    if (!s.isEmpty() && s.chars().allMatch(c -> Character.isLetterOrDigit(c) || "-_./:=@%+,".indexOf(c) >= 0)) {
      return s;
    }
    return "'" + s.replace("'", "'\\''") + "'";
  }
}
