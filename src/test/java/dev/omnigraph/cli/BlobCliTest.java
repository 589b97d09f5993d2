package dev.omnigraph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omnigraph.cli.CliHarness.Run;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.api.storage.StorageConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code omnigraph blob put|get|stat} on a local graph: a file's bytes in, the same bytes out to a
 * file and one inclusive range of them, the description ({@code --json}), a clear, and the usage
 * errors of a bad range.
 */
class BlobCliTest {

  @TempDir Path dir;

  @Test
  void putGetStatAndClearOneCell() throws Exception {
    Path root = dir.resolve("g");
    Omnigraph.init(StorageConfig.local(root), "node Doc {\n  slug: String @key\n  body: Blob?\n}\n",
        Optional.of("setup")).close();
    assertThat(CliHarness.run("load", "--store", root.toString(), "--mode", "append", "--data",
        Files.writeString(dir.resolve("d.jsonl"), "{\"type\":\"Doc\",\"data\":{\"slug\":\"a\"}}\n").toString()).exit())
        .isZero();
    byte[] bytes = new byte[300_000];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) (i * 7 + 1); // every byte value, newlines and zeros included
    }
    Path in = Files.write(dir.resolve("in.bin"), bytes);
    String[] cell = {"--type", "Doc", "--id", "a", "--property", "body", "--store", root.toString()};

    Run put = CliHarness.run(concat(new String[] {"blob", "put", "--input", in.toString(), "--json"}, cell));
    assertThat(put.exit()).as(put.err()).isZero();
    String etag = put.json().get("etag").asText();

    Path out = dir.resolve("out.bin");
    Run get = CliHarness.run(concat(new String[] {"blob", "get", "--output", out.toString()}, cell));
    assertThat(get.exit()).as(get.err()).isZero();
    assertThat(Files.readAllBytes(out)).isEqualTo(bytes);
    Run range = CliHarness.run(concat(new String[] {"blob", "get", "--range", "10-19", "--output",
        out.toString()}, cell));
    assertThat(range.exit()).as(range.err()).isZero();
    assertThat(Files.readAllBytes(out)).isEqualTo(Arrays.copyOfRange(bytes, 10, 20));

    Run stat = CliHarness.run(concat(new String[] {"blob", "stat", "--json"}, cell));
    assertThat(stat.exit()).as(stat.err()).isZero();
    assertThat(stat.json().get("size").asLong()).isEqualTo(bytes.length);
    assertThat(stat.json().get("etag").asText()).isEqualTo(etag);
    assertThat(stat.json().get("snapshot").asText()).isEqualTo(put.json().get("graph_commit_id").asText());
    assertThat(stat.json().has("content_type")).isFalse();

    Run bad = CliHarness.run(concat(new String[] {"blob", "get", "--range", "9-2"}, cell));
    assertThat(bad.exit()).isEqualTo(ExitCodes.USAGE);
    assertThat(bad.err()).contains("--range must be A-B");

    Run clear = CliHarness.run(concat(new String[] {"blob", "put", "--clear", "--if-match", etag}, cell));
    assertThat(clear.exit()).as(clear.err()).isZero();
    assertThat(clear.out()).contains("the cell is null");
    Run gone = CliHarness.run(concat(new String[] {"blob", "stat"}, cell));
    assertThat(gone.exit()).isNotZero();
    assertThat(gone.err()).contains("is null");
  }

  private static String[] concat(String[] a, String[] b) {
    String[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
