package dev.omnigraph.engine;

import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.testing.ChildJvm;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * Starts {@link CrashChild} in a fresh JVM on the test class path, with the graph's connection
 * settings in its environment and optionally one failpoint set to {@code exit}.
 */
final class CrashChildProcess implements AutoCloseable {

  /** What a finished child did. */
  record Result(int exitCode, String output) {}

  private final Process process;
  private final Path tmp;
  private final List<String> lines = new CopyOnWriteArrayList<>();
  private final Thread reader;

  private CrashChildProcess(Process process, Path tmp) {
    this.process = process;
    this.tmp = tmp;
    this.reader = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
          StandardCharsets.UTF_8))) {
        for (String line; (line = r.readLine()) != null; ) {
          lines.add(line);
        }
      } catch (IOException ignored) {
        // the child died: what was read is what it said
      }
    }, "crash-child-reader");
    reader.setDaemon(true);
    reader.start();
  }

  /**
   * Starts the child on {@code config}'s root.
   *
   * @param failpoint a failpoint to halt at ({@code exit}), or empty
   */
  static CrashChildProcess start(StorageConfig config, Optional<String> failpoint, String op, String... args)
      throws IOException {
    return start(config, failpoint, Map.of(), List.of(), op, args);
  }

  /**
   * As {@link #start(StorageConfig, Optional, String, String...)}, with extra environment variables
   * (e.g. {@code HOSTNAME}, which names the lease holder's host) and JVM options (e.g.
   * {@code -Domnigraph.lease.ttl=2s}).
   */
  static CrashChildProcess start(StorageConfig config, Optional<String> failpoint, Map<String, String> extraEnv,
      List<String> jvmOptions, String op, String... args) throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ChildJvm.Launch launch = ChildJvm.launch("crash-child", BASE_OPTIONS, CrashChildProcess::warmup);
    List<String> cmd = new ArrayList<>();
    cmd.add(java);
    cmd.addAll(BASE_OPTIONS);
    cmd.addAll(launch.options());
    Path tmp = Files.createTempDirectory("crash-child-");
    cmd.add("-Djava.io.tmpdir=" + tmp);
    failpoint.ifPresent(fp -> cmd.add("-Domnigraph.failpoints=" + fp + "=exit"));
    cmd.addAll(jvmOptions);
    cmd.addAll(List.of("-cp", launch.classPath(), CrashChild.class.getName(), config.rootUri(), op));
    cmd.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(cmd).redirectErrorStream(true);
    Map<String, String> env = builder.environment();
    env.keySet().removeIf(k -> k.startsWith("AWS_"));
    if (config.backend() == StorageConfig.Backend.S3) {
      // StorageConfig.fromEnvironment reads exactly these; Lance's createBranch reads them too.
      config.endpoint().ifPresent(e -> env.put("AWS_ENDPOINT", e));
      env.put("AWS_REGION", config.region());
      config.accessKeyId().ifPresent(v -> env.put("AWS_ACCESS_KEY_ID", v));
      config.secretAccessKey().ifPresent(v -> env.put("AWS_SECRET_ACCESS_KEY", v));
      config.sessionToken().ifPresent(v -> env.put("AWS_SESSION_TOKEN", v));
      env.put("AWS_ALLOW_HTTP", Boolean.toString(config.allowHttp()));
      env.put("AWS_VIRTUAL_HOSTED_STYLE_REQUEST", Boolean.toString(!config.pathStyle()));
    }
    env.putAll(extraEnv);
    return new CrashChildProcess(builder.start(), tmp);
  }

  /** The options every crash child starts with, the warm-up that dumps their class archive too. */
  private static final List<String> BASE_OPTIONS = baseOptions();

  private static List<String> baseOptions() {
    List<String> o = new ArrayList<>(List.of("--add-opens=java.base/java.nio=ALL-UNNAMED",
        "-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto",
        // The child loads ~2,000 classes of our own build and its dependencies, verified by the
        // compiler that made them; skipping their bytecode verification saves ~15% of a child's CPU
        // (measured: 1.9 -> 1.6 s user for a one-row load), and the suite starts about a hundred.
        "-XX:+UnlockDiagnosticVMOptions", "-XX:-BytecodeVerificationRemote",
        "-Djava.util.logging.manager=org.jboss.logmanager.LogManager"));
    // Lance's native library: loaded in place from where Maven unpacked it once per build
    // (ChildJvm). Without that, Lance unpacks its ~180 MB into java.io.tmpdir and deletes it only
    // on a normal exit, so a halted or killed child would leave it behind: each child gets a
    // private directory that close() removes.
    o.addAll(ChildJvm.nativeOptions());
    return List.copyOf(o);
  }

  /**
   * The run that dumps the children's class archive: {@code CrashChild warmup} on a local root in
   * {@code scratch}, one operation of each kind the tests give a child (AppCDS, see ChildJvm:
   * a child's ~3,500 classes mapped instead of loaded, 1.9 -> 1.45 s for a one-row mutation).
   */
  private static ProcessBuilder warmup(List<String> jvm, Path scratch) {
    List<String> cmd = new ArrayList<>(jvm);
    cmd.addAll(List.of(CrashChild.class.getName(), scratch.resolve("g").toUri().toString(), "warmup"));
    ProcessBuilder builder = new ProcessBuilder(cmd);
    builder.environment().keySet().removeIf(k -> k.startsWith("AWS_"));
    return builder;
  }

  /** Writes one command line to the child's stdin (see {@code CrashChild hold}). */
  void send(String line) throws IOException {
    var in = process.getOutputStream();
    in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    in.flush();
  }

  /** Sends a POSIX signal ({@code STOP}, {@code CONT}, {@code TERM}, …) to the child. */
  void signal(String name) throws IOException, InterruptedException {
    Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start();
    if (kill.waitFor() != 0) {
      throw new IOException("kill -" + name + " " + process.pid() + " failed");
    }
  }

  /** The child's process id. */
  long pid() {
    return process.pid();
  }

  /** Whether the child is still running. */
  boolean alive() {
    return process.isAlive();
  }

  /** Runs the child to its end (at most {@code timeoutSeconds}). */
  static Result run(StorageConfig config, Optional<String> failpoint, long timeoutSeconds, String op,
      String... args) throws IOException, InterruptedException {
    try (CrashChildProcess child = start(config, failpoint, op, args)) {
      return child.await(timeoutSeconds);
    }
  }

  /** Waits for the child to end; a child still running after the timeout is killed and fails. */
  Result await(long timeoutSeconds) throws InterruptedException {
    if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
      reader.join(10_000);
      throw new AssertionError("child did not finish within " + timeoutSeconds + " s:\n" + output());
    }
    reader.join(10_000);
    return new Result(process.exitValue(), output());
  }

  /** Waits until the child printed a line starting with {@code prefix}; false if it ended first. */
  boolean awaitLine(String prefix, long timeoutMillis) throws InterruptedException {
    long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
    while (System.nanoTime() < deadline) {
      if (lines.stream().anyMatch(l -> l.startsWith(prefix))) {
        return true;
      }
      if (!process.isAlive() && !reader.isAlive()) {
        return lines.stream().anyMatch(l -> l.startsWith(prefix));
      }
      Thread.sleep(5);
    }
    return false;
  }

  /** SIGKILL now, then collect everything the child managed to print. */
  Result kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(60, TimeUnit.SECONDS);
    reader.join(10_000);
    return new Result(process.exitValue(), output());
  }

  /** Every line the child printed so far. */
  List<String> lines() {
    return List.copyOf(lines);
  }

  private String output() {
    return String.join("\n", lines);
  }

  @Override
  public void close() {
    if (process.isAlive()) {
      process.destroyForcibly();
      try {
        process.waitFor(60, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    try (var files = Files.walk(tmp)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    } catch (IOException e) {
      // best effort: a leftover directory is only disk space
    }
  }
}
