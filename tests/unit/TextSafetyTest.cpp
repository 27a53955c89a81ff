// What ScaleLab prints and writes from untrusted text (issue 31.4 and 31.5): passwords out of
// errors, escape sequences out of the terminal, formulas out of CSV cells; and the shell
// command helper behind \shell and \setshell.
#include "util/Csv.h"
#include "util/AtomicFile.h"
#include "util/Error.h"
#include "util/Redact.h"
#include "util/ShellCommand.h"
#include "util/TempDir.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>
#include <sstream>

using namespace scalelab;

TEST(Redact, PasswordsInUrisAndKeyValueStringsAreReplaced) {
    EXPECT_EQ(redactPasswords("the results store location postgresql://bench:Pw0rd@db1/lab holds a password"),
              "the results store location postgresql://bench:***@db1/lab holds a password");
    EXPECT_EQ(redactPasswords("postgres://u:p%40ss@h:5432/d#exp and more"), "postgres://u:***@h:5432/d#exp and more");
    EXPECT_EQ(redactPasswords("POSTGRESQL://u:secret@[::1]/d"), "POSTGRESQL://u:***@[::1]/d");
    EXPECT_EQ(redactPasswords("'postgresql://a:b@c'"), "'postgresql://a:***@c'");
    EXPECT_EQ(redactPasswords("--conninfo: host=/tmp password=secret dbname=x"), "--conninfo: host=/tmp password=*** dbname=x");
    EXPECT_EQ(redactPasswords("host=h password = 'it\\'s secret' user=u"), "host=h password = *** user=u");
    EXPECT_EQ(redactPasswords("postgresql:///d?host=/tmp&password=secret&user=u"), "postgresql:///d?host=/tmp&password=***&user=u");
    // Nothing else changes: a user without a password, a word that only ends in "password".
    EXPECT_EQ(redactPasswords("postgresql://bench@db1/lab#x"), "postgresql://bench@db1/lab#x");
    EXPECT_EQ(redactPasswords("http://u:p@h/ and passwordless=1 nopassword=2"), "http://u:p@h/ and passwordless=1 nopassword=2");
    EXPECT_EQ(redactPasswords("a password is needed"), "a password is needed");
}

TEST(Redact, TerminalSafeTextHasNoControlCharacters) {
    EXPECT_EQ(terminalSafe("A\x1b]0;pwned\x07" "B\r\n"), "A?]0;pwned?B??");
    EXPECT_EQ(terminalSafe("line 1\n\tline 2\x1b[2J", true), "line 1\n\tline 2?[2J");
    EXPECT_EQ(terminalSafe("csi \xc2\x9b" "31m, caf\xc3\xa9"), "csi ?31m, caf\xc3\xa9");  // C1 CSI out, é kept
}

TEST(Csv, CellsThatASpreadsheetWouldRunAreWrittenAsTextAndReadBackUnchanged) {
    TempDir dir("scalelab-csv-");
    std::string path = (dir.path() / "t.csv").string();
    std::vector<std::string> row = {"=HYPERLINK(\"http://x\")", "+1+1", "-2+3", "@SUM(A1)", "\tx", "-5", "+1e3", "-0.25",
                                    "'=already", "'plain", "''", "label", "", "-nan"};
    {
        CsvWriter w(path);
        w.row(row);
        w.close();
    }
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_EQ(text.str(), "\"'=HYPERLINK(\"\"http://x\"\")\",'+1+1,'-2+3,'@SUM(A1),'\tx,-5,+1e3,-0.25,''=already,'plain,''',label,,'-nan\r\n");
    std::vector<std::string> back;
    readCsv(text.str(), path, [&](const std::vector<std::string>& f, int) { back = f; });
    EXPECT_EQ(back, row);
}

// The temporary name of an atomic write is predictable (PATH.partial-PID): a link planted there
// in a shared directory is refused, never written through.
TEST(Csv, ALinkPlantedAtTheTemporaryNameIsNotFollowed) {
    TempDir dir("scalelab-csv-link-");
    std::string victim = (dir.path() / "victim").string(), path = (dir.path() / "out.csv").string();
    std::ofstream(victim) << "precious\n";
    std::string temp = path + ".partial-" + std::to_string(getpid());
    ASSERT_EQ(symlink(victim.c_str(), temp.c_str()), 0);
    EXPECT_THROW(CsvWriter w(path), Error);
    EXPECT_THROW(writeFileAtomically(path, "x"), Error);
    std::ifstream in(victim);
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_EQ(text.str(), "precious\n");
}

TEST(ShellCommand, RunsAsSystemAndPopenDo) {
    EXPECT_EQ(runShellCommand("exit 0").status, 0);
    EXPECT_NE(runShellCommand("exit 3").status, 0);
    ShellRun r = runShellCommandForLine("echo 42; echo 43", 64);
    EXPECT_TRUE(r.started && r.gotLine);
    EXPECT_EQ(r.line, "42\n");
    r = runShellCommandForLine("printf 1234567890", 5);  // fgets: at most size - 1 bytes
    EXPECT_EQ(r.line, "1234");
    r = runShellCommandForLine("true", 64);
    EXPECT_FALSE(r.gotLine);
    // A command that writes far more than a pipe holds still ends once its output is closed.
    r = runShellCommandForLine("yes", 64);
    EXPECT_EQ(r.line, "y\n");
}
