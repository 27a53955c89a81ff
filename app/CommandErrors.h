#pragma once
// How every subcommand ends on an error: "scalelab: error: WHAT" on stderr and exit status 1,
// or 2 for a usage error found after parsing (options that do not go together, nothing asked
// for). One place, so each command states only what it does.
#include "util/Error.h"
#include "util/Redact.h"

#include <cstdio>
#include <exception>
#include <iostream>
#include <string>

namespace scalelab::app {

constexpr int kUsageError = 2;

class UsageError : public Error {
public:
    using Error::Error;
};

// Runs `body` (returning the exit status). `lead` goes before the message: "\n" ends a
// progress line the command may have left open.
template <typename Body>
int runCommand(Body&& body, const char* lead = "") {
    auto say = [lead](const char* what) {
        std::cout.flush();  // what the command printed comes first, as std::cerr would have it
        std::fflush(stdout);
        // An error may quote what the user typed or a file holds: never a password, never a
        // terminal escape sequence.
        std::fprintf(stderr, "%sscalelab: error: %s\n", lead, terminalSafe(redactPasswords(what), true).c_str());
    };
    try {
        return body();
    } catch (const UsageError& e) {
        say(e.what());
        return kUsageError;
    } catch (const std::exception& e) {
        say(e.what());
        return 1;
    }
}

} // namespace scalelab::app
