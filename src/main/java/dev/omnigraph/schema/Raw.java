package dev.omnigraph.schema;

import java.math.BigDecimal;
import java.util.List;

/**
 * The syntax tree as written, every node carrying the position the checker reports errors at.
 * Nothing here is validated beyond what the grammar guarantees.
 */
final class Raw {

  private Raw() {}

  /** 1-based line and column. */
  record Pos(int line, int column) {}

  enum Kind {
    INTERFACE("interface", "an interface"),
    NODE("node", "a node"),
    EDGE("edge", "an edge");

    final String word;
    final String withArticle;

    Kind(String word, String withArticle) {
      this.word = word;
      this.withArticle = withArticle;
    }
  }

  record Schema(List<Decl> decls) {}

  record Name(String text, Pos pos) {}

  /** One declaration; {@code from}/{@code to} only for edges, {@code implemented} only for nodes. */
  record Decl(
      Kind kind,
      Name name,
      List<Name> implemented,
      Name from,
      Name to,
      List<Annotation> header,
      List<Prop> props,
      List<Annotation> body) {}

  record Prop(Name name, TypeRef type, List<Annotation> annotations) {}

  /** A type as written; {@code nullable} is the trailing {@code ?}. */
  sealed interface TypeRef permits Named, ListOf, EnumOf {
    Pos pos();

    boolean nullable();
  }

  /** {@code String}, {@code Vector(3)}, {@code Strin}: resolved by the checker. */
  record Named(String name, Pos pos, Num arg, boolean nullable) implements TypeRef {}

  record ListOf(TypeRef element, Pos pos, boolean nullable) implements TypeRef {}

  record EnumOf(List<Name> values, Pos pos, boolean nullable) implements TypeRef {}

  /**
   * {@code pos} is that of the {@code @}; {@code hasParens} tells {@code @key} (a property flag) from
   * {@code @key()} (an empty list).
   */
  record Annotation(Name name, Pos pos, boolean hasParens, List<Arg> args) {}

  sealed interface Arg permits NameArg, StringArg, NumArg, RangeArg, KeywordArg {
    Pos pos();

    /** The argument as an uninterpreted annotation records it. */
    String text();
  }

  record NameArg(String text, Pos pos) implements Arg {}

  record StringArg(String value, Pos pos) implements Arg {
    @Override
    public String text() {
      return value;
    }
  }

  record NumArg(Num num) implements Arg {
    @Override
    public Pos pos() {
      return num.pos();
    }

    @Override
    public String text() {
      return num.text();
    }
  }

  /** {@code lo..hi}, either side may be missing. */
  record RangeArg(Num lo, Num hi, Pos pos) implements Arg {
    @Override
    public String text() {
      return (lo == null ? "" : lo.text()) + ".." + (hi == null ? "" : hi.text());
    }
  }

  record KeywordArg(Name key, Arg value) implements Arg {
    @Override
    public Pos pos() {
      return key.pos();
    }

    @Override
    public String text() {
      return key.text() + "=" + value.text();
    }
  }

  /** A numeric literal: {@code integral} when written without a fractional part. */
  record Num(String text, BigDecimal value, boolean integral, Pos pos) {}
}
