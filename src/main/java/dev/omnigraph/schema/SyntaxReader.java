package dev.omnigraph.schema;

import dev.omnigraph.util.QuotedStrings;

import dev.omnigraph.schema.grammar.OmniSchemaBaseVisitor;
import dev.omnigraph.schema.grammar.OmniSchemaLexer;
import dev.omnigraph.schema.grammar.OmniSchemaParser;
import dev.omnigraph.schema.grammar.OmniSchemaParser.AnnotationContext;
import dev.omnigraph.schema.grammar.OmniSchemaParser.DeclarationContext;
import dev.omnigraph.schema.grammar.OmniSchemaParser.EdgeDeclContext;
import dev.omnigraph.schema.grammar.OmniSchemaParser.EnumPartContext;
import dev.omnigraph.schema.grammar.OmniSchemaParser.EnumValueContext;
import dev.omnigraph.schema.grammar.OmniSchemaParser.InterfaceDeclContext;
import dev.omnigraph.schema.grammar.OmniSchemaParser.MemberContext;
import dev.omnigraph.schema.grammar.OmniSchemaParser.NodeDeclContext;
import dev.omnigraph.schema.grammar.OmniSchemaParser.SignedNumberContext;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import dev.omnigraph.syntax.SourceText;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.tree.TerminalNode;

/** Text to {@link Raw.Schema}: lexing, parsing, and the purely lexical checks (escapes, enum spelling). */
final class SyntaxReader {

  private SyntaxReader() {}

  static Raw.Schema read(String source) {
    OmniSchemaLexer lexer = new OmniSchemaLexer(CharStreams.fromString(SourceText.withoutBom(source)));
    lexer.removeErrorListeners();
    lexer.addErrorListener(SyntaxErrors.INSTANCE);
    OmniSchemaParser parser = new OmniSchemaParser(new CommonTokenStream(SyntaxErrors.depthLimited(lexer)));
    parser.removeErrorListeners();
    parser.addErrorListener(SyntaxErrors.INSTANCE);
    OmniSchemaParser.SchemaFileContext file = parser.schemaFile();

    List<Raw.Decl> decls = new ArrayList<>();
    for (DeclarationContext d : file.declaration()) {
      decls.add(declaration(d));
    }
    return new Raw.Schema(List.copyOf(decls));
  }

  private static Raw.Decl declaration(DeclarationContext d) {
    if (d.interfaceDecl() != null) {
      InterfaceDeclContext c = d.interfaceDecl();
      Body body = body(c.member());
      return new Raw.Decl(Raw.Kind.INTERFACE, name(c.name), List.of(), null, null,
          annotations(c.annotation()), body.props, body.annotations);
    }
    if (d.nodeDecl() != null) {
      NodeDeclContext c = d.nodeDecl();
      List<Raw.Name> implemented = new ArrayList<>();
      if (c.implementsClause() != null) {
        for (TerminalNode t : c.implementsClause().IDENT()) {
          implemented.add(name(t.getSymbol()));
        }
      }
      Body body = body(c.member());
      return new Raw.Decl(Raw.Kind.NODE, name(c.name), List.copyOf(implemented), null, null,
          annotations(c.annotation()), body.props, body.annotations);
    }
    EdgeDeclContext c = d.edgeDecl();
    Body body = body(c.member());
    return new Raw.Decl(Raw.Kind.EDGE, name(c.name), List.of(), name(c.from), name(c.to),
        annotations(c.annotation()), body.props, body.annotations);
  }

  private record Body(List<Raw.Prop> props, List<Raw.Annotation> annotations) {}

  /**
   * An annotation belongs to the property written just before it, as in {@code name: String @key};
   * a separator ({@code ;} or {@code ,}) or the start of the body makes it a body annotation.
   */
  private static Body body(List<MemberContext> members) {
    List<Raw.Prop> props = new ArrayList<>();
    List<Raw.Annotation> bodyAnnotations = new ArrayList<>();
    Raw.Name currentName = null;
    Raw.TypeRef currentType = null;
    List<Raw.Annotation> currentAnnotations = null;
    for (MemberContext m : members) {
      if (m.annotation() != null) {
        Raw.Annotation a = annotation(m.annotation());
        (currentAnnotations != null ? currentAnnotations : bodyAnnotations).add(a);
        continue;
      }
      if (currentAnnotations != null) {
        props.add(new Raw.Prop(currentName, currentType, List.copyOf(currentAnnotations)));
        currentAnnotations = null;
      }
      if (m.propertyDecl() != null) {
        currentName = name(m.propertyDecl().ident().getStart());
        currentType = TypeReader.INSTANCE.read(m.propertyDecl().typeRef());
        currentAnnotations = new ArrayList<>();
      }
    }
    if (currentAnnotations != null) {
      props.add(new Raw.Prop(currentName, currentType, List.copyOf(currentAnnotations)));
    }
    return new Body(List.copyOf(props), List.copyOf(bodyAnnotations));
  }

  private static List<Raw.Annotation> annotations(List<AnnotationContext> contexts) {
    return contexts.stream().map(SyntaxReader::annotation).toList();
  }

  private static Raw.Annotation annotation(AnnotationContext c) {
    List<Raw.Arg> args = new ArrayList<>();
    for (OmniSchemaParser.ArgumentContext a : c.argument()) {
      args.add(ArgReader.INSTANCE.visit(a));
    }
    return new Raw.Annotation(name(c.ident().getStart()), pos(c.AT().getSymbol()), c.LPAREN() != null,
        List.copyOf(args));
  }

  /** Type references; a visitor because {@code coreType} has labelled alternatives. */
  private static final class TypeReader extends OmniSchemaBaseVisitor<Raw.TypeRef> {
    static final TypeReader INSTANCE = new TypeReader();

    Raw.TypeRef read(OmniSchemaParser.TypeRefContext c) {
      boolean outer = c.QUESTION() != null;
      Raw.TypeRef core = visit(c.coreType());
      return withNullable(core, outer);
    }

    private static Raw.TypeRef withNullable(Raw.TypeRef t, boolean nullable) {
      if (t instanceof Raw.Named n) {
        return new Raw.Named(n.name(), n.pos(), n.arg(), nullable);
      }
      if (t instanceof Raw.ListOf l) {
        return new Raw.ListOf(l.element(), l.pos(), nullable);
      }
      Raw.EnumOf e = (Raw.EnumOf) t;
      return new Raw.EnumOf(e.values(), e.pos(), nullable);
    }

    @Override
    public Raw.TypeRef visitNamedType(OmniSchemaParser.NamedTypeContext c) {
      Raw.Num arg = c.signedNumber() == null ? null : number(c.signedNumber());
      return new Raw.Named(c.IDENT().getText(), pos(c.IDENT().getSymbol()), arg, false);
    }

    @Override
    public Raw.TypeRef visitListType(OmniSchemaParser.ListTypeContext c) {
      return new Raw.ListOf(read(c.typeRef()), pos(c.getStart()), false);
    }

    @Override
    public Raw.TypeRef visitEnumType(OmniSchemaParser.EnumTypeContext c) {
      List<Raw.Name> values = new ArrayList<>();
      for (EnumValueContext v : c.enumValue()) {
        values.add(enumValue(v));
      }
      return new Raw.EnumOf(List.copyOf(values), pos(c.getStart()), false);
    }
  }

  /**
   * Rejoins a variant the lexer split ({@code in-progress} is IDENT MINUS IDENT), refusing gaps:
   * {@code enum(a b)} is a missing comma, not the variant {@code ab}.
   */
  private static Raw.Name enumValue(EnumValueContext v) {
    StringBuilder text = new StringBuilder();
    Token previous = null;
    for (EnumPartContext part : v.enumPart()) {
      Token t = part.getStart();
      if (previous != null && previous.getStopIndex() + 1 != t.getStartIndex()) {
        throw error(t, "enum variants are separated by commas: missing ',' before '" + t.getText() + "'");
      }
      text.append(t.getText());
      previous = t;
    }
    return new Raw.Name(text.toString(), pos(v.getStart()));
  }

  /** Annotation arguments; a visitor because {@code argument} has labelled alternatives. */
  private static final class ArgReader extends OmniSchemaBaseVisitor<Raw.Arg> {
    static final ArgReader INSTANCE = new ArgReader();

    @Override
    public Raw.Arg visitNameArgument(OmniSchemaParser.NameArgumentContext c) {
      Token t = c.ident().getStart();
      return new Raw.NameArg(t.getText(), pos(t));
    }

    @Override
    public Raw.Arg visitLiteralArgument(OmniSchemaParser.LiteralArgumentContext c) {
      return literal(c.literal());
    }

    @Override
    public Raw.Arg visitKeywordArgument(OmniSchemaParser.KeywordArgumentContext c) {
      return new Raw.KeywordArg(name(c.key.getStart()), literal(c.literal()));
    }

    @Override
    public Raw.Arg visitRangeArgument(OmniSchemaParser.RangeArgumentContext c) {
      OmniSchemaParser.RangeContext r = c.range();
      Raw.Num lo = r.lo == null ? null : number(r.lo);
      Raw.Num hi = r.hi == null ? null : number(r.hi);
      return new Raw.RangeArg(lo, hi, pos(r.getStart()));
    }

    private static Raw.Arg literal(OmniSchemaParser.LiteralContext c) {
      if (c.STRING() != null) {
        Token t = c.STRING().getSymbol();
        return new Raw.StringArg(unquote(t), pos(t));
      }
      return new Raw.NumArg(number(c.signedNumber()));
    }
  }

  private static Raw.Num number(SignedNumberContext c) {
    boolean integral = c.INT() != null;
    String text = (c.MINUS() != null ? "-" : "") + (integral ? c.INT().getText() : c.FLOAT().getText());
    return new Raw.Num(text, new BigDecimal(text), integral, pos(c.getStart()));
  }

  /** Decodes a string literal; a bad escape is reported at the backslash. */
  static String unquote(Token t) {
    return QuotedStrings.unquote(t.getText(), t.getLine(), t.getCharPositionInLine() + 2, SchemaParseException::new);
  }

  static Raw.Name name(Token t) {
    return new Raw.Name(t.getText(), pos(t));
  }

  static Raw.Pos pos(Token t) {
    return new Raw.Pos(t.getLine(), t.getCharPositionInLine() + 1);
  }

  static SchemaParseException error(Token t, String reason) {
    return new SchemaParseException(t.getLine(), t.getCharPositionInLine() + 1, reason);
  }

  static Raw.Pos pos(ParserRuleContext c) {
    return pos(c.getStart());
  }
}
