package dev.omnigraph.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine;

/**
 * Every command's {@code --help} text, rendered once at build time ({@code process-classes}, see
 * the pom) into {@code omnigraph-help/<command path>.txt} on the classpath, so that
 * {@code omnigraph [COMMAND...] --help} prints it without building the command model: picocli's
 * reflection over every command class was most of a help run's start-up (5.9x a bare
 * {@code java -version}, against a 5x target). The text is picocli's own rendering without ANSI
 * styles; {@code CliHelpTest} checks that each file still equals the live rendering, so a changed
 * option cannot leave a stale text behind. Where the files are missing (a build that skipped the
 * step), the model is built as before.
 */
public final class HelpTexts {

  static final String FOLDER = "omnigraph-help/";

  private HelpTexts() {}

  /** The stored help for {@code args} when they are exactly command names then {@code -h}/{@code --help}. */
  static Optional<String> stored(String... args) {
    if (args.length == 0 || !(args[args.length - 1].equals("--help") || args[args.length - 1].equals("-h"))) {
      return Optional.empty();
    }
    List<String> path = new ArrayList<>();
    for (int i = 0; i < args.length - 1; i++) {
      if (!args[i].matches("[a-z][a-z-]*")) {
        return Optional.empty(); // an option or a value: the full parse decides
      }
      path.add(args[i]);
    }
    try (InputStream in = HelpTexts.class.getClassLoader().getResourceAsStream(resource(path))) {
      return in == null ? Optional.empty() : Optional.of(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  static String resource(List<String> path) {
    return FOLDER + (path.isEmpty() ? "omnigraph" : "omnigraph-" + String.join("-", path)) + ".txt";
  }

  /** The live rendering of one command's usage, as {@code --help} prints it off a terminal. */
  static String render(CommandLine command) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    command.usage(new PrintStream(out, true, StandardCharsets.UTF_8), CommandLine.Help.Ansi.OFF);
    return out.toString(StandardCharsets.UTF_8);
  }

  /** Every command path of the tree, the root ({@code []}) first, with its command. */
  static void walk(CommandLine command, List<String> path, java.util.function.BiConsumer<List<String>, CommandLine> to) {
    to.accept(List.copyOf(path), command);
    command.getSubcommands().forEach((name, sub) -> {
      List<String> next = new ArrayList<>(path);
      next.add(name);
      walk(sub, next, to);
    });
  }

  /** Build step: writes every command's help under {@code args[0]} (the classes folder). */
  public static void main(String... args) throws IOException {
    Path folder = Path.of(args[0]).resolve(FOLDER);
    Files.createDirectories(folder);
    List<IOException> failed = new ArrayList<>();
    walk(RootCommand.commandLine(null), new ArrayList<>(), (path, cmd) -> {
      try {
        Files.writeString(Path.of(args[0]).resolve(resource(path)), render(cmd), StandardCharsets.UTF_8);
      } catch (IOException e) {
        failed.add(e);
      }
    });
    if (!failed.isEmpty()) {
      throw failed.get(0);
    }
  }
}
