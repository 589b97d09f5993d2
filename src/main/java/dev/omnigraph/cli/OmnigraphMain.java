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
    BootSettings.apply(args);
    Quarkus.run(OmnigraphMain.class, args);
  }

  @Override
  public int run(String... args) {
    return RootCommand.commandLine(factory).execute(args);
  }
}
