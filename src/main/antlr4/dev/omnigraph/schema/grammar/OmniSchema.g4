/*
 * The OmniGraph schema language (.pg), see docs/schema-language.md.
 *
 * The grammar is deliberately permissive where a precise message needs the semantic pass:
 * type names, scalar names, annotation names and argument shapes are parsed generically and
 * checked in dev.omnigraph.schema, so "unknown type 'Strin'" or "Vector dimension must be
 * positive" point at the offending token instead of surfacing as a bare syntax error.
 */
grammar OmniSchema;

schemaFile
    : declaration* EOF
    ;

declaration
    : interfaceDecl
    | nodeDecl
    | edgeDecl
    ;

interfaceDecl
    : INTERFACE name=IDENT annotation* LBRACE member* RBRACE
    ;

// Annotations may sit before or after the implements clause; both read naturally.
nodeDecl
    : NODE name=IDENT annotation* implementsClause? annotation* LBRACE member* RBRACE
    ;

implementsClause
    : IMPLEMENTS IDENT (COMMA IDENT)*
    ;

// The body is optional for edges only: an edge without properties is common, a node is not.
edgeDecl
    : EDGE name=IDENT COLON from=IDENT ARROW to=IDENT annotation* (LBRACE member* RBRACE)?
    ;

// Annotations are body members rather than a suffix of propertyDecl so that
// `age: I32 @index(name, age)` is not ambiguous; the checker attaches an annotation to the
// property right before it unless a separator intervenes.
member
    : propertyDecl
    | annotation
    | SEMI
    | COMMA
    ;

propertyDecl
    : ident COLON typeRef
    ;

typeRef
    : coreType QUESTION?
    ;

coreType
    : LBRACK typeRef RBRACK                                        # listType
    | ENUM LPAREN (enumValue (COMMA enumValue)* COMMA?)? RPAREN    # enumType
    | IDENT (LPAREN signedNumber RPAREN)?                          # namedType
    ;

// Enum variants follow the reference's [A-Za-z0-9_-]+; the lexer splits `in-progress` or
// `2x` into several tokens, which the checker rejoins after verifying they touch.
enumValue
    : enumPart+
    ;

enumPart
    : ident
    | INT
    | MINUS
    ;

annotation
    : AT ident (LPAREN (argument (COMMA argument)*)? RPAREN)?
    ;

argument
    : key=ident EQ literal    # keywordArgument
    | range                   # rangeArgument
    | literal                 # literalArgument
    | ident                   # nameArgument
    ;

range
    : lo=signedNumber? DOTDOT hi=signedNumber?
    ;

literal
    : STRING
    | signedNumber
    ;

signedNumber
    : MINUS? (INT | FLOAT)
    ;

// Keywords stay usable as property and annotation names (`edge: String`, `@node`).
ident
    : IDENT
    | NODE
    | EDGE
    | INTERFACE
    | IMPLEMENTS
    | ENUM
    ;

NODE       : 'node';
EDGE       : 'edge';
INTERFACE  : 'interface';
IMPLEMENTS : 'implements';
ENUM       : 'enum';

ARROW    : '->';
DOTDOT   : '..';
COLON    : ':';
SEMI     : ';';
COMMA    : ',';
LBRACE   : '{';
RBRACE   : '}';
LPAREN   : '(';
RPAREN   : ')';
LBRACK   : '[';
RBRACK   : ']';
QUESTION : '?';
AT       : '@';
EQ       : '=';
MINUS    : '-';

// FLOAT needs a digit after the dot so `0..10` lexes as INT DOTDOT INT.
FLOAT  : DIGIT+ '.' DIGIT+;
INT    : DIGIT+;
IDENT  : [A-Za-z_] [A-Za-z0-9_]*;
STRING : '"' (~["\\] | '\\' .)* '"';

LINE_COMMENT  : '//' ~[\r\n]* -> skip;
BLOCK_COMMENT : '/*' .*? '*/' -> skip;
WS            : [ \t\r\n\f]+ -> skip;

fragment DIGIT : [0-9];
