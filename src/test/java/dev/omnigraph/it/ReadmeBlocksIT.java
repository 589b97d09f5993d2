package dev.omnigraph.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every command block of README.md runs as written (issue 45: "a README that runs as written"), in
 * README order, in one {@code bash} with {@code set -euo pipefail}, so a variable a block captures
 * (a commit id, a cursor) is there for the blocks after it.
 *
 * <p>What is a command block: a fenced block whose info string is {@code bash} or {@code sh}. A
 * {@code text} block (printed output) is not run. An HTML comment on the line before the fence
 * changes how a block runs:
 * <ul>
 *   <li>{@code <!-- readme-test: skip (reason) -->}: not run; the test prints the block and the
 *       reason. For what cannot run here: the build and the suite itself, benchmarks, S3 buckets.</li>
 *   <li>{@code <!-- readme-test: background -->}: a server. The block is one command; it runs in the
 *       background, its output in {@code background-LINE.log}, and is stopped when the script ends.
 *       The next block that names the port first waits for {@code /q/health/ready} to answer 200.</li>
 * </ul>
 *
 * <p>The fresh copy: a temp directory holding {@code bin/omnigraph} and {@code src/main/resources/example/}
 * (the files the README names), nothing else of the checkout; the launcher runs the jar this build
 * packaged ({@code OMNIGRAPH_JAR}). The README's port 8080 is replaced by a free port in every block, and
 * {@code QUARKUS_HTTP_PORT} is set to it, so {@code bin/omnigraph serve} without {@code --port} binds it.
 * A failing block fails the test naming its README line and first line.
 */
class ReadmeBlocksIT {

  private static final Path BASEDIR = Path.of(System.getProperty("omnigraph.it.basedir", "."));
  private static final Pattern FENCE = Pattern.compile("^```(\\w*)\\s*$");
  private static final Pattern MARKER = Pattern.compile("^<!-- readme-test: (skip|background)(?: \\((.*)\\))? -->$");
  private static final String README_PORT = "8080";

  /** A fenced command block: the line of its opening fence (1-based), its text, and its marker. */
  record Block(int line, String text, String marker, String reason) {
    String firstLine() {
      return text.lines().findFirst().orElse("");
    }

    String where() {
      return "README.md:" + line + " (" + firstLine() + ")";
    }
  }

  static List<Block> blocks(List<String> readme) {
    List<Block> blocks = new ArrayList<>();
    for (int i = 0; i < readme.size(); i++) {
      Matcher open = FENCE.matcher(readme.get(i));
      if (!open.matches()) {
        continue;
      }
      int start = i;
      StringBuilder text = new StringBuilder();
      for (i++; i < readme.size() && !readme.get(i).startsWith("```"); i++) {
        text.append(readme.get(i)).append('\n');
      }
      if (!open.group(1).equals("bash") && !open.group(1).equals("sh")) {
        continue;
      }
      Matcher marker = start > 0 ? MARKER.matcher(readme.get(start - 1).strip()) : MARKER.matcher("");
      blocks.add(marker.matches()
          ? new Block(start + 1, text.toString(), marker.group(1), marker.group(2))
          : new Block(start + 1, text.toString(), "run", null));
    }
    return blocks;
  }

  /** The whole README as one script: each block announced, then run; a failure names its block. */
  static String script(List<Block> blocks, String port) {
    StringBuilder s = new StringBuilder("""
        set -euo pipefail
        readme_block='(setup)'
        readme_pids=()
        readme_waited=1
        readme_end() {
          local rc=$?
          if [[ $rc -ne 0 ]]; then echo "README BLOCK FAILED (exit $rc): $readme_block" >&2; fi
          for p in ${readme_pids[@]+"${readme_pids[@]}"}; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
          times > readme-times.txt # not in $(…): a subshell's `times` has no children
          echo "readme-test: CPU of the commands (user, then system): $(tail -1 readme-times.txt)"
        }
        trap readme_end EXIT
        readme_await() {
          for _ in $(seq 1 480); do
            if curl -fs -o /dev/null "http://127.0.0.1:%1$s/q/health/ready"; then return 0; fi
            for p in "${readme_pids[@]}"; do
              if ! kill -0 "$p" 2>/dev/null; then echo "the background server exited:" >&2; cat background-*.log >&2; return 1; fi
            done
            sleep 0.25
          done
          echo "no readiness on port %1$s after 120 s" >&2; return 1
        }
        """.formatted(port));
    for (Block b : blocks) {
      if (b.marker().equals("skip")) {
        continue;
      }
      String text = b.text().replace(README_PORT, port);
      s.append("\nreadme_block=").append(shellQuote(b.where())).append('\n');
      s.append("echo \"== $readme_block\" >&2\n");
      if (b.marker().equals("background")) {
        List<String> commands = text.lines().filter(l -> !l.isBlank() && !l.strip().startsWith("#")).toList();
        assertThat(commands).as("a background block is one command: %s", b.where()).hasSize(1);
        // A simple command sent to the background is exec'd by its subshell: $! is the launcher,
        // which execs the JVM, so the pid kill stops is the server's.
        s.append(commands.get(0)).append(" > background-").append(b.line()).append(".log 2>&1 &\n");
        s.append("readme_pids+=($!)\nreadme_waited=0\n");
        continue;
      }
      if (text.contains(port)) {
        s.append("if [[ $readme_waited == 0 ]]; then readme_await; readme_waited=1; fi\n");
      }
      s.append(text);
    }
    return s.toString();
  }

  private static String shellQuote(String s) {
    return "'" + s.replace("'", "'\\''") + "'";
  }

  private static Path packagedJar() throws IOException {
    try (Stream<Path> jars = Files.list(BASEDIR.resolve("target"))) {
      return jars.filter(p -> p.getFileName().toString().matches("omnigraph-.*-runner\\.jar")).findFirst()
          .orElseThrow(() -> new AssertionError("no packaged jar in target/: run ./mvnw -B -DskipTests package"));
    }
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path f : files.toList()) {
        Path target = to.resolve(from.relativize(f).toString());
        if (Files.isDirectory(f)) {
          Files.createDirectories(target);
        } else {
          Files.copy(f, target, java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    }
  }

  @Test
  void everyCommandBlockOfTheReadmeRunsAsWritten(@TempDir Path copy) throws Exception {
    List<Block> blocks = blocks(Files.readAllLines(BASEDIR.resolve("README.md")));
    assertThat(blocks).as("README command blocks").hasSizeGreaterThan(5);
    for (Block b : blocks) {
      if (b.marker().equals("skip")) {
        System.out.println("readme-test: skipped " + b.where() + ": " + b.reason());
      }
    }
    copyTree(BASEDIR.resolve("bin"), copy.resolve("bin"));
    copyTree(BASEDIR.resolve("src/main/resources/example"), copy.resolve("src/main/resources/example"));
    int port;
    try (java.net.ServerSocket probe = new java.net.ServerSocket(0)) {
      port = probe.getLocalPort();
    }
    Path script = Files.writeString(copy.resolve("readme.sh"), script(blocks, Integer.toString(port)));
    Path log = copy.resolve("readme.log");
    ProcessBuilder pb = new ProcessBuilder("bash", "--noprofile", "--norc", script.toString())
        .directory(copy.toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
    pb.environment().put("OMNIGRAPH_JAR", packagedJar().toAbsolutePath().toString());
    pb.environment().put("QUARKUS_HTTP_PORT", Integer.toString(port));
    // The JIT and GC settings of NewUserFlowsIT (the same jar, launcher and code paths): ~45 short
    // runs, several of which (load, optimize, cleanup) the launcher gives C2 and G1, which cost
    // them more CPU than they save.
    pb.environment().put("OMNIGRAPH_JAVA_OPTS", NewUserFlowsIT.CLI_JVM_OPTIONS);
    long start = System.nanoTime();
    Process bash = pb.start();
    boolean finished;
    try {
      finished = bash.waitFor(300, TimeUnit.SECONDS);
    } finally {
      // Only what this test started: the script and whatever it left running (a server on timeout).
      bash.descendants().forEach(ProcessHandle::destroy);
      bash.destroy();
    }
    String output = Files.readString(log);
    output.lines().filter(l -> l.startsWith("readme-test: CPU")).forEach(System.out::println);
    System.out.printf("readme-test: %d blocks ran in %.1f s%n",
        blocks.stream().filter(b -> !b.marker().equals("skip")).count(), (System.nanoTime() - start) / 1e9);
    assertThat(finished).as("the README's blocks finished within 300 s:%n%s", output).isTrue();
    String failed = output.lines().filter(l -> l.startsWith("README BLOCK FAILED")).findFirst().orElse("");
    assertThat(bash.exitValue()).as("%s%n--- output ---%n%s", failed, output).isZero();
  }
}
