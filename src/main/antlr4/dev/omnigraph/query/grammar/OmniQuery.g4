/*
 * The OmniGraph query language (.gq), see docs/query-language.md.
 *
 * Only shape lives here. Type names, parameter types and hop bounds are parsed generically and
 * judged in dev.omnigraph.query, so "unknown parameter type 'Strin'" or "hop bounds {3,1}" point at
 * the offending token with a reason instead of surfacing as a bare syntax error.
 */
grammar OmniQuery;

queryFile
    : queryDecl* EOF
    ;

queryDecl
    : QUERY name=ident LPAREN (param (COMMA param)* COMMA?)? RPAREN queryAnnotation* LBRACE body RBRACE
    ;

// `@description("…")` and `@instruction("…")` (the reference's only two); any other name is judged
// in AstBuilder, so it gets a message naming it rather than a bare syntax error.
queryAnnotation
    : AT name=ident LPAREN STRING RPAREN
    ;

param
    : VARIABLE COLON typeRef
    ;

typeRef
    : coreType QUESTION?
    ;

coreType
    : LBRACK typeRef RBRACK                # listType
    | IDENT (LPAREN INT RPAREN)?           # namedType
    ;

body
    : readBody
    | mutation+
    ;

// ---- reads ----

readBody
    : MATCH LBRACE clause+ RBRACE returnClause orderClause? limitClause?
    ;

// Clauses need no separator: each starts with a variable, a literal, now() or `not`, and the
// colon after a variable (binding) or the name after it (traversal) tells them apart.
clause
    : VARIABLE COLON typeName=IDENT (LBRACE propMatch (COMMA propMatch)* COMMA? RBRACE)?   # binding
    | src=VARIABLE (edgeVar=VARIABLE COLON)? (edgeName | open=LT edgeName GT) hopBounds? dst=VARIABLE  # traversal
    | left=operand filterOp right=operand                                                # filter
    | call                                                                               # textSearch
    | NOT LBRACE clause+ RBRACE                                                          # negation
    ;

propMatch
    : ident COLON value
    ;

// A keyword cannot name an edge bare (`$a contains $b` is a filter); the quoted form reaches it.
// The search function names can (`$a search $b` is a traversal, as in the reference).
edgeName
    : IDENT
    | STRING
    | callName
    ;

// The upper bound is optional here only so that `{1,}` gets a targeted message from the checker.
hopBounds
    : LBRACE min=INT COMMA max=INT? RBRACE
    ;

operand
    : propRef
    | VARIABLE
    | value
    ;

propRef
    : VARIABLE DOT ident
    ;

filterOp
    : EQ | NE | LT | LE | GT | GE | CONTAINS | STARTS_WITH
    ;

returnClause
    : RETURN LBRACE (projection COMMA?)+ RBRACE
    ;

projection
    : expr=returnExpr (AS alias=ident)?
    ;

// A bare variable returns a bound node's id (or a parameter's value); literals and now() return
// a constant column, as in the reference.
returnExpr
    : aggregate
    | call
    | propRef
    | value
    ;

// count(distinct ...) counts distinct non-null values (distinct nodes for a variable).
aggregate
    : aggFunc LPAREN DISTINCT? (propRef | VARIABLE) RPAREN
    ;

aggFunc
    : COUNT | SUM | AVG | MIN | MAX
    ;

orderClause
    : ORDER LBRACE ordering (COMMA ordering)* COMMA? RBRACE
    ;

ordering
    : orderKey (ASC | DESC)?
    ;

// A bare name is a return alias.
orderKey
    : aggregate
    | call
    | propRef
    | ident
    ;

// The search functions: search/fuzzy/match_text filter in match; nearest/bm25/rrf score in return
// and order. Which function may stand where, and its arguments, are judged in AstBuilder and the
// checker, so a misplaced or misshapen call gets a message naming it.
call
    : fn=callName LPAREN (callArg (COMMA callArg)*)? RPAREN
    ;

callName
    : NEAREST | SEARCH | FUZZY | MATCH_TEXT | BM25 | RRF
    ;

callArg
    : call
    | operand
    ;

limitClause
    : LIMIT INT
    ;

// ---- mutations ----

mutation
    : INSERT typeName=IDENT LBRACE (assignment COMMA?)+ RBRACE                                   # insert
    | UPDATE typeName=IDENT SET LBRACE (assignment COMMA?)+ RBRACE WHERE predicate               # update
    | DELETE typeName=IDENT WHERE predicate                                                      # delete
    ;

assignment
    : ident COLON value
    ;

predicate
    : ident filterOp value
    ;

// ---- values ----

value
    : literal
    | VARIABLE
    | NOW LPAREN RPAREN
    ;

literal
    : STRING                                              # stringLiteral
    | MINUS? (INT | FLOAT)                                # numberLiteral
    | (TRUE | FALSE)                                      # boolLiteral
    | NULL                                                # nullLiteral
    | DATE LPAREN STRING RPAREN                           # dateLiteral
    | DATETIME LPAREN STRING RPAREN                       # dateTimeLiteral
    | LBRACK (literal (COMMA literal)* COMMA?)? RBRACK    # listLiteral
    ;

// Keywords stay usable as property names, query names and aliases (`limit: I32`, `as count`).
ident
    : IDENT
    | QUERY | MATCH | RETURN | ORDER | LIMIT | NOT | AS | ASC | DESC
    | INSERT | UPDATE | DELETE | SET | WHERE
    | CONTAINS | STARTS_WITH | COUNT | SUM | AVG | MIN | MAX | DISTINCT
    | NOW | DATE | DATETIME
    | callName
    ;

QUERY       : 'query';
MATCH       : 'match';
RETURN      : 'return';
ORDER       : 'order';
LIMIT       : 'limit';
NOT         : 'not';
AS          : 'as';
ASC         : 'asc';
DESC        : 'desc';
INSERT      : 'insert';
UPDATE      : 'update';
DELETE      : 'delete';
SET         : 'set';
WHERE       : 'where';
CONTAINS    : 'contains';
STARTS_WITH : 'starts_with';
COUNT       : 'count';
SUM         : 'sum';
AVG         : 'avg';
MIN         : 'min';
MAX         : 'max';
DISTINCT    : 'distinct';
NOW         : 'now';
NEAREST     : 'nearest';
SEARCH      : 'search';
FUZZY       : 'fuzzy';
MATCH_TEXT  : 'match_text';
BM25        : 'bm25';
RRF         : 'rrf';
DATE        : 'date';
DATETIME    : 'datetime';
TRUE        : 'true';
FALSE       : 'false';
NULL        : 'null';

EQ       : '=';
NE       : '!=';
LE       : '<=';
GE       : '>=';
LT       : '<';
GT       : '>';
COLON    : ':';
COMMA    : ',';
DOT      : '.';
LBRACE   : '{';
RBRACE   : '}';
LPAREN   : '(';
RPAREN   : ')';
LBRACK   : '[';
RBRACK   : ']';
QUESTION : '?';
AT       : '@';
MINUS    : '-';

VARIABLE : '$' [A-Za-z_] [A-Za-z0-9_]*;
FLOAT    : DIGIT+ '.' DIGIT+ ([eE] [+-]? DIGIT+)?;
INT      : DIGIT+;
IDENT    : [A-Za-z_] [A-Za-z0-9_]*;
STRING   : '"' (~["\\] | '\\' .)* '"';

LINE_COMMENT  : '//' ~[\r\n]* -> skip;
BLOCK_COMMENT : '/*' .*? '*/' -> skip;
WS            : [ \t\r\n\f]+ -> skip;

fragment DIGIT : [0-9];
