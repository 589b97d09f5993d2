package dev.omnigraph.engine.gqt;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omnigraph.engine.gqt.GqtCase.Step;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the reference's logic-test format (its RFC 0045, {@code crates/omnigraph-gqt/cases/}): a
 * header of {@code #} lines, then sections that each start at a line {@code --- name [args]} and
 * run to the next. Fail-closed, like the reference: an unknown or misplaced section, a step without
 * an expectation, a row that is not a JSON object are refused before any graph is made, so a typo
 * can never turn into a case that asserts nothing.
 *
 * <p>What it accepts: {@code runner} (read and ignored: the storage is the runner's choice here),
 * {@code schema}, {@code seed}, then steps: {@code query [branch: B]}, {@code mutate [branch: B]},
 * each with an optional {@code params} and one {@code expect} ({@code unordered}, {@code ordered},
 * {@code ok}, {@code affected: nodes=N edges=M}, {@code error: fragment}, {@code outcome: word}),
 * a rows expectation optionally followed by {@code expect shape}; {@code restart}; and
 * {@code foreach $x a b …} / {@code loop $i from to} … {@code endloop}, unrolled here with
 * {@code ${x}} substituted in params and expect bodies only. Ours: {@code query commit: B~N} reads
 * the commit N steps back from B's head (time travel; the reference's format has no form for it).
 * Not implemented, reported as {@link GqtFormatError.Unsupported}: {@code seam}, {@code fault},
 * {@code known_failure}, a {@code # traversal:} pin.
 */
public final class GqtParser {

  /** The most iterations one loop may unroll to (the reference's bound). */
  static final int MAX_ITERATIONS = 10_000;

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern AFFECTED = Pattern.compile("affected: nodes=(\\d+) edges=(\\d+)");
  private static final Pattern LOOP_VAR = Pattern.compile("\\$([a-z][a-z0-9_]*)");
  private static final Pattern LOOP_VALUE = Pattern.compile("[A-Za-z0-9_.-]+");
  private static final Pattern COMMIT_BACK = Pattern.compile("(\\S+)~(\\d+)");
  private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([^}]*)}");

  private record Section(String name, String args, int line, List<String> body, List<Integer> bodyLines) {
    String text() {
      return String.join("\n", body).strip();
    }

    boolean blank() {
      return body.stream().allMatch(String::isBlank);
    }
  }

  private final String file;

  private GqtParser(String file) {
    this.file = file;
  }

  /**
   * Parses one case.
   *
   * @param file the path, for messages
   * @param text the file's text
   * @throws GqtFormatError.Unsupported for a section or header this runner does not implement
   * @throws GqtFormatError for anything malformed
   */
  public static GqtCase parse(String file, String text) {
    return new GqtParser(file).parse(text);
  }

  private GqtCase parse(String text) {
    if (text.indexOf('\r') >= 0) {
      throw error(1 + (int) text.substring(0, text.indexOf('\r')).chars().filter(c -> c == '\n').count(),
          "a carriage return; .gqt files use \\n line endings");
    }
    String[] lines = text.split("\n", -1);
    List<Section> sections = new ArrayList<>();
    int i = 0;
    for (; i < lines.length && !lines[i].startsWith("--- "); i++) {
      String l = lines[i];
      if (l.isBlank()) {
        continue;
      }
      if (!l.startsWith("#")) {
        throw error(i + 1, "a header line must start with '#'; sections start with '--- '");
      }
      if (l.startsWith("# traversal:")) {
        throw new GqtFormatError.Unsupported(file, i + 1, "# traversal: (a traversal-mode pin)");
      }
    }
    Section current = null;
    for (; i < lines.length; i++) {
      String l = lines[i];
      if (l.startsWith("--- ")) {
        String head = l.substring(4).strip();
        int sp = head.indexOf(' ');
        String name = sp < 0 ? head : head.substring(0, sp);
        String args = sp < 0 ? "" : head.substring(sp + 1).strip();
        current = new Section(name, args, i + 1, new ArrayList<>(), new ArrayList<>());
        sections.add(current);
      } else if (l.equals("---") || l.startsWith("---\t")) {
        throw error(i + 1, "a section header is '--- name'");
      } else {
        current.body().add(l);
        current.bodyLines().add(i + 1);
      }
    }
    int at = 0;
    if (at < sections.size() && sections.get(at).name().equals("runner")) {
      at++; // the environments it lists are the runner's choice here (--store)
    }
    if (at < sections.size() && sections.get(at).name().equals("known_failure")) {
      throw new GqtFormatError.Unsupported(file, sections.get(at).line(), "--- known_failure");
    }
    if (at >= sections.size() || !sections.get(at).name().equals("schema")) {
      throw error(at < sections.size() ? sections.get(at).line() : lines.length,
          "a case starts with '--- schema' (after an optional '--- runner')");
    }
    Section schema = sections.get(at++);
    if (at >= sections.size() || !sections.get(at).name().equals("seed")) {
      throw error(at < sections.size() ? sections.get(at).line() : lines.length,
          "'--- seed' follows '--- schema' (it may be empty)");
    }
    Section seed = sections.get(at++);
    for (int k = 0; k < seed.body().size(); k++) {
      String row = seed.body().get(k);
      noPlaceholder(row, seed.bodyLines().get(k));
      if (row.strip().startsWith("#")) {
        throw error(seed.bodyLines().get(k), "a comment inside '--- seed'; comments belong in the header");
      }
    }
    List<Step> steps = new ArrayList<>();
    while (at < sections.size()) {
      Section s = sections.get(at);
      if (s.name().equals("foreach") || s.name().equals("loop")) {
        int end = at + 1;
        while (end < sections.size() && !sections.get(end).name().equals("endloop")) {
          if (sections.get(end).name().equals("foreach") || sections.get(end).name().equals("loop")) {
            throw error(sections.get(end).line(), "loops do not nest");
          }
          end++;
        }
        if (end == sections.size()) {
          throw error(s.line(), "'--- " + s.name() + "' without '--- endloop'");
        }
        if (!s.blank() || !sections.get(end).blank()) {
          throw error(s.line(), "loop headers have no body");
        }
        List<Section> inner = sections.subList(at + 1, end);
        Loop loop = loop(s);
        for (String value : loop.values()) {
          steps(inner, loop.var(), value, steps);
        }
        at = end + 1;
        continue;
      }
      if (s.name().equals("endloop")) {
        throw error(s.line(), "'--- endloop' without a loop");
      }
      int next = nextStep(sections, at);
      steps(sections.subList(at, next), null, null, steps);
      at = next;
    }
    if (steps.stream().noneMatch(st -> st instanceof GqtCase.Query || st instanceof GqtCase.Mutate)) {
      throw error(seed.line(), "a case needs at least one '--- query' or '--- mutate' step");
    }
    return new GqtCase(file, schema.text(), String.join("\n", seed.body()), seed.line(), steps);
  }

  /** The index just past the step that starts at {@code at} (its params, expect and shape). */
  private static int nextStep(List<Section> sections, int at) {
    int i = at + 1;
    while (i < sections.size() && (sections.get(i).name().equals("params") || sections.get(i).name().equals("expect"))) {
      i++;
    }
    return i;
  }

  /** A loop's variable (without {@code $}) and its values, one per iteration. */
  private record Loop(String var, List<String> values) {}

  private Loop loop(Section s) {
    String[] words = s.args().isBlank() ? new String[0] : s.args().split("\\s+");
    if (words.length == 0 || !LOOP_VAR.matcher(words[0]).matches()) {
      throw error(s.line(), "'--- " + s.name() + "' names a variable first: $name (lower case)");
    }
    String var = words[0].substring(1);
    List<String> values = new ArrayList<>();
    if (s.name().equals("loop")) {
      if (words.length != 3 || !words[1].matches("\\d{1,9}") || !words[2].matches("\\d{1,9}")) {
        throw error(s.line(), "'--- loop $i FROM TO' iterates FROM up to TO (exclusive), non-negative integers");
      }
      int from = Integer.parseInt(words[1]);
      int to = Integer.parseInt(words[2]);
      if (to - from > MAX_ITERATIONS) {
        throw error(s.line(), "a loop of more than " + MAX_ITERATIONS + " iterations");
      }
      for (int v = from; v < to; v++) {
        values.add(Integer.toString(v));
      }
    } else {
      for (int k = 1; k < words.length; k++) {
        if (!LOOP_VALUE.matcher(words[k]).matches()) {
          throw error(s.line(), "a foreach value is letters, digits, '_', '.' or '-': " + words[k]);
        }
        values.add(words[k]);
      }
    }
    if (values.isEmpty()) {
      throw error(s.line(), "a loop with no iteration asserts nothing");
    }
    return new Loop(var, values);
  }

  /** The steps of {@code secs}, with {@code ${var}} bound to {@code value} (both null outside a loop). */
  private void steps(List<Section> secs, String var, String value, List<Step> out) {
    String iteration = var == null ? "" : "$" + var + "=" + value;
    int i = 0;
    while (i < secs.size()) {
      Section s = secs.get(i);
      switch (s.name()) {
        case "restart" -> {
          if (!s.blank() || !s.args().isEmpty()) {
            throw error(s.line(), "'--- restart' takes no arguments and no body");
          }
          out.add(new GqtCase.Restart(s.line()));
          i++;
        }
        case "query", "mutate" -> {
          boolean query = s.name().equals("query");
          for (int k = 0; k < s.body().size(); k++) {
            noPlaceholder(s.body().get(k), s.bodyLines().get(k));
          }
          if (s.blank()) {
            throw error(s.line(), "'--- " + s.name() + "' holds one declaration or branch statement");
          }
          i++;
          String params = "{}";
          if (i < secs.size() && secs.get(i).name().equals("params")) {
            Section p = secs.get(i++);
            params = substitute(p, var, value);
            if (!p.args().isEmpty()) {
              throw error(p.line(), "'--- params' takes no arguments");
            }
            JsonNode node = json(params.isBlank() ? "{}" : params, p.line(), "params");
            if (!node.isObject()) {
              throw error(p.line(), "'--- params' holds one JSON object");
            }
          }
          if (i >= secs.size() || !secs.get(i).name().equals("expect") || secs.get(i).args().equals("shape")) {
            throw error(s.line(), "'--- " + s.name() + "' needs an '--- expect' section: a step nobody asserts"
                + " hides regressions");
          }
          Section e = secs.get(i++);
          GqtCase.Expect expect = expect(e, var, value, query);
          Optional<GqtCase.Shape> shape = Optional.empty();
          if (i < secs.size() && secs.get(i).name().equals("expect") && secs.get(i).args().equals("shape")) {
            Section sh = secs.get(i++);
            if (!(expect instanceof GqtCase.Rows)) {
              throw error(sh.line(), "'--- expect shape' follows a rows expectation (unordered or ordered)");
            }
            shape = Optional.of(shape(sh));
          }
          if (i < secs.size() && secs.get(i).name().equals("expect")) {
            throw error(secs.get(i).line(), "one expectation per step (and a shape after rows)");
          }
          String body = s.text();
          if (query) {
            String branch = "main";
            Optional<Integer> back = Optional.empty();
            if (s.args().startsWith("branch:")) {
              branch = argValue(s, "branch:");
            } else if (s.args().startsWith("commit:")) {
              Matcher m = COMMIT_BACK.matcher(argValue(s, "commit:"));
              if (!m.matches()) {
                throw error(s.line(), "'commit: B~N' reads the commit N steps back from branch B's head");
              }
              branch = m.group(1);
              back = Optional.of(Integer.parseInt(m.group(2)));
            } else if (!s.args().isEmpty()) {
              throw error(s.line(), "'--- query' takes 'branch: NAME' or 'commit: BRANCH~N'");
            }
            if (expect instanceof GqtCase.Affected || expect instanceof GqtCase.Outcome) {
              throw error(e.line(), "a query step expects rows or an error");
            }
            out.add(new GqtCase.Query(s.line(), body, branch, back, params, expect, shape, iteration));
          } else {
            String branch = "main";
            if (s.args().startsWith("branch:")) {
              branch = argValue(s, "branch:");
            } else if (!s.args().isEmpty()) {
              throw error(s.line(), "'--- mutate' takes 'branch: NAME'");
            }
            if (expect instanceof GqtCase.Rows) {
              throw error(e.line(), "a mutation has no rows; expect ok, affected, error or outcome");
            }
            out.add(new GqtCase.Mutate(s.line(), body, branch, params, expect, iteration));
          }
        }
        case "seam", "fault" -> throw new GqtFormatError.Unsupported(file, s.line(), "--- " + s.name());
        case "params" -> throw error(s.line(), "'--- params' follows a '--- query' or '--- mutate' section");
        case "expect" -> throw error(s.line(), "'--- expect' follows a step");
        case "schema", "seed", "runner" -> throw error(s.line(), "'--- " + s.name() + "' only at the start of a case");
        default -> throw error(s.line(), "unknown section '--- " + s.name() + "'");
      }
    }
  }

  private String argValue(Section s, String key) {
    String v = s.args().substring(key.length()).strip();
    if (v.isEmpty()) {
      throw error(s.line(), "'" + key + "' needs a value");
    }
    return v;
  }

  private GqtCase.Expect expect(Section e, String var, String value, boolean query) {
    String mode = e.args();
    if (mode.equals("unordered") || mode.equals("ordered")) {
      List<String> rows = new ArrayList<>();
      List<Integer> rowLines = new ArrayList<>();
      for (int k = 0; k < e.body().size(); k++) {
        String raw = e.body().get(k);
        if (raw.isBlank()) {
          continue;
        }
        int line = e.bodyLines().get(k);
        if (raw.strip().startsWith("#")) {
          throw error(line, "a comment inside an expectation; comments belong in the header");
        }
        String row = substituteLine(raw, line, var, value);
        if (!json(row, line, "row").isObject()) {
          throw error(line, "an expected row is one JSON object");
        }
        rows.add(row);
        rowLines.add(line);
      }
      return new GqtCase.Rows(e.line(), mode.equals("ordered"), rows, rowLines);
    }
    if (!e.blank()) {
      throw error(e.line(), "'--- expect " + mode + "' has no body");
    }
    if (mode.equals("ok")) {
      return new GqtCase.Ok(e.line());
    }
    Matcher affected = AFFECTED.matcher(mode);
    if (affected.matches()) {
      return new GqtCase.Affected(e.line(), Long.parseLong(affected.group(1)), Long.parseLong(affected.group(2)));
    }
    if (mode.startsWith("error:")) {
      String fragment = mode.substring("error:".length()).strip();
      if (fragment.isEmpty()) {
        throw error(e.line(), "'expect error:' names a fragment of the message: any error would pass otherwise");
      }
      return new GqtCase.Error(e.line(), fragment);
    }
    if (mode.startsWith("outcome:")) {
      String word = mode.substring("outcome:".length()).strip();
      if (!List.of("already_up_to_date", "fast_forward", "merged").contains(word)) {
        throw error(e.line(), "a merge outcome is already_up_to_date, fast_forward or merged");
      }
      return new GqtCase.Outcome(e.line(), word);
    }
    throw error(e.line(), "'--- expect' takes unordered, ordered, ok, affected: nodes=N edges=M, error: FRAGMENT,"
        + " outcome: WORD or shape");
  }

  private GqtCase.Shape shape(Section sh) {
    List<GqtCase.Column> cols = new ArrayList<>();
    for (int k = 0; k < sh.body().size(); k++) {
      String l = sh.body().get(k).strip();
      int line = sh.bodyLines().get(k);
      if (l.isEmpty()) {
        continue;
      }
      int colon = l.lastIndexOf(": ");
      if (colon <= 0) {
        throw error(line, "a shape line is 'column: Type' ('?' after the type permits null cells)");
      }
      String type = l.substring(colon + 2).strip();
      boolean nullable = type.endsWith("?");
      cols.add(new GqtCase.Column(line, l.substring(0, colon).strip(), nullable
          ? type.substring(0, type.length() - 1) : type, nullable));
    }
    return new GqtCase.Shape(sh.line(), cols);
  }

  private String substitute(Section s, String var, String value) {
    List<String> out = new ArrayList<>();
    for (int k = 0; k < s.body().size(); k++) {
      out.add(substituteLine(s.body().get(k), s.bodyLines().get(k), var, value));
    }
    return String.join("\n", out).strip();
  }

  /** {@code ${var}} replaced by the iteration's value; any other {@code ${…}} is refused. */
  private String substituteLine(String l, int line, String var, String value) {
    Matcher m = PLACEHOLDER.matcher(l);
    StringBuilder b = new StringBuilder();
    while (m.find()) {
      if (var == null || !m.group(1).equals(var)) {
        throw error(line, "'${" + m.group(1) + "}' names no enclosing loop variable");
      }
      m.appendReplacement(b, Matcher.quoteReplacement(value));
    }
    m.appendTail(b);
    if (b.indexOf("${") >= 0) {
      throw error(line, "an unclosed '${'");
    }
    return b.toString();
  }

  /** Query, mutate and seed text stay literal: a loop value reaches a query through its params. */
  private void noPlaceholder(String l, int line) {
    if (l.contains("${")) {
      throw error(line, "'${' outside a params or expect body; pass loop values as params");
    }
  }

  private JsonNode json(String text, int line, String what) {
    try {
      return JSON.readTree(text);
    } catch (com.fasterxml.jackson.core.JsonProcessingException ex) {
      throw error(line, "the " + what + " is not JSON: " + ex.getOriginalMessage());
    }
  }

  private GqtFormatError error(int line, String reason) {
    return new GqtFormatError(file, line, reason);
  }
}
