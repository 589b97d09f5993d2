package dev.omnigraph.testing;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * Structured inputs for the front-end fuzz tests: valid sample files with a few random edits
 * (delete, duplicate, swap, truncate, insert a token of the language or an odd character), random
 * token soups, and bracket nesting. Each property bounds its own tries so the default suite stays
 * within seconds.
 */
public final class FuzzInputs {

  private FuzzInputs() {}

  /** Characters that break naive text handling: NUL, controls, BOM, RTL override, lone and paired surrogates, astral. */
  public static final List<String> ODD = List.of("\u0000", "\u0001", "\u001b", "\u007f", "\ufeff", "\u202e",
      "\u2028", "\ud800", "\udfff", "\ud83d\ude00", "\ud835\udd18", "\u00e9", "e\u0301", "\uffff", "\ufffd", "\t",
      "\r", "\r\n", "\n", " ", "\\", "\\u", "\\ud800", "\\u0000", "\"", "'", "`", "${", "*/", "/*", "//", "#");

  /** The sample files of {@code src/test/resources/graphs} ending in {@code suffix}. */
  public static List<String> samples(String suffix) {
    URL dir = FuzzInputs.class.getClassLoader().getResource("graphs");
    try (Stream<Path> files = Files.list(Path.of(dir.toURI()))) {
      List<String> out = new ArrayList<>();
      for (Path p : files.filter(f -> f.getFileName().toString().endsWith(suffix)).sorted().toList()) {
        out.add(Files.readString(p, StandardCharsets.UTF_8));
      }
      if (out.isEmpty()) {
        throw new IllegalStateException("no graphs/*" + suffix + " samples");
      }
      return out;
    } catch (IOException | URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** One classpath resource as text. */
  public static String resource(String name) {
    try (InputStream in = FuzzInputs.class.getClassLoader().getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** One edit of a text; positions are fractions of the current length so they always apply. */
  public record Edit(int kind, double at, double to, String token) {
    String apply(String s) {
      int n = s.length();
      int a = (int) (at * n);
      int b = Math.min(n, a + (int) (to * Math.min(n, 64)));
      switch (kind) {
        case 0:
          return s.substring(0, a) + s.substring(b); // delete a range
        case 1:
          return s.substring(0, b) + s.substring(a, b) + s.substring(b); // duplicate a range
        case 2:
          return s.substring(0, a); // truncate
        case 3: {
          int c = (int) (to * n);
          int lo = Math.min(a, c);
          int hi = Math.max(a, c);
          int mid = lo + (hi - lo) / 2;
          return s.substring(0, lo) + s.substring(mid, hi) + s.substring(lo, mid) + s.substring(hi); // swap halves
        }
        case 4:
          return s.substring(0, a) + token + s.substring(b); // replace a range with a token
        default:
          return s.substring(0, a) + token + s.substring(a); // insert a token
      }
    }
  }

  /** Valid samples with 1..{@code maxEdits} edits drawing tokens from {@code tokens} and {@link #ODD}. */
  public static Arbitrary<String> mutated(List<String> samples, List<String> tokens, int maxEdits) {
    Arbitrary<String> token = Arbitraries.oneOf(Arbitraries.of(tokens), Arbitraries.of(ODD),
        Arbitraries.strings().ofMaxLength(8), Arbitraries.strings().all().ofMaxLength(4));
    Arbitrary<Edit> edit = Combinators.combine(Arbitraries.integers().between(0, 6),
        Arbitraries.doubles().between(0, 1), Arbitraries.doubles().between(0, 1), token).as(Edit::new);
    return Combinators.combine(Arbitraries.of(samples), edit.list().ofMinSize(1).ofMaxSize(maxEdits))
        .as((s, edits) -> {
          String out = s;
          for (Edit e : edits) {
            out = e.apply(out);
          }
          return out;
        });
  }

  /** Random sequences of the language's tokens and odd characters, space separated or not. */
  public static Arbitrary<String> tokenSoup(List<String> tokens, int maxTokens) {
    Arbitrary<String> token = Arbitraries.oneOf(Arbitraries.of(tokens), Arbitraries.of(tokens),
        Arbitraries.of(tokens), Arbitraries.of(ODD));
    return Combinators.combine(token.list().ofMaxSize(maxTokens), Arbitraries.of(" ", "", "\n"))
        .as((ts, sep) -> String.join(sep, ts));
  }

  /** {@code open} repeated {@code depth} times, then {@code inner}, then {@code close} as often. */
  public static String nested(String open, String inner, String close, int depth) {
    return open.repeat(depth) + inner + close.repeat(depth);
  }
}
