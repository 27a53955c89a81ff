#pragma once
// Splits a pgbench script into SQL commands and backslash (meta) commands the way pgbench
// does with psql's lexer (psqlscan.l): a ';' ends a command unless it is inside quotes
// ('...', E'...', "..."), a dollar quote, a comment, parentheses, or the BEGIN ... END body of
// CREATE FUNCTION/PROCEDURE; "\;" puts a ';' into the command without ending it; a backslash
// anywhere else starts a meta command that runs to the end of the line (backslash-newline
// continues it). Leading blanks and "--" comments before a command are dropped.
#include <string>
#include <vector>

namespace scalelab {

struct ScriptPiece {
    enum class Kind { Sql, Meta };
    Kind kind = Kind::Sql;
    std::string text;  // Sql: the command as pgbench sends it (with its ';'); Meta: from the backslash on
    int line = 1;      // of the first character
    int column = 1;    // of the first character
};

std::vector<ScriptPiece> scanScript(const std::string& text);

} // namespace scalelab
