package dev.omnigraph.cli;

import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.QuarkusApplication;
import io.quarkus.runtime.annotations.QuarkusMain;
import jakarta.inject.Inject;
import picocli.CommandLine;

/**
 * One jar, two faces: {@code serve} boots the HTTP service, every other command is a CLI run that
 * must not open a port. Quarkus starts HTTP during boot, before {@link #run} sees the arguments, so
 * {@link #main} parses the arguments first and {@link BootSettings} enables HTTP only for a clean
 * {@code serve} parse: {@code serve --help} or a mistyped {@code serve} starts nothing.
 */
@QuarkusMain
public class OmnigraphMain implements QuarkusApplication {

  @Inject CommandLine.IFactory factory;

  public static void main(String... args) {
    if (args.length == 1 && (args[0].equals("version") || args[0].equals("--version") || args[0].equals("-V"))) {
      // The call scripts make to check a binary: answered before picocli builds the model of every
      // command (reflection over ~20 command classes, most of a CLI start). The same text.
      for (String line : new VersionCommand.Provider().getVersion()) {
        System.out.println(line);
      }
      System.exit(ExitCodes.OK);
    }
    java.util.Optional<String> help = HelpTexts.stored(args);
    if (help.isPresent()) {
      // The same text, rendered at build time: no command model to build.
      System.out.print(help.get());
      System.out.flush();
      System.exit(ExitCodes.OK);
    }
    if (BootSettings.serveRun(args).isEmpty()) {
      // A CLI run needs none of Quarkus (no bean of ours is injected into a command, no setting is
      // read from its config): booting it loaded ~6,000 classes (Arc, Vert.x, Netty, SmallRye
      // Config) before `version` could print a line. Picocli runs the command directly.
      System.exit(cliRun(args));
    }
    BootSettings.apply(args);
    Quarkus.run(OmnigraphMain.class, args);
  }

  /** Runs a non-serve command without booting Quarkus; its exit code. */
  static int cliRun(String... args) {
    CliLogging.quiet();
    return RootCommand.commandLine(null).execute(args);
  }

  @Override
  public int run(String... args) {
    return RootCommand.commandLine(factory).execute(args);
  }
}
