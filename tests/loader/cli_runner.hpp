#pragma once
// Runs dppgemm-emu's command line in-process (run_cli) with argv as typed
// after the program name, capturing the exit code and both streams.

#include <sstream>
#include <string>
#include <vector>

#include "emu/tools/cli.hpp"

namespace loader_test {

struct CliResult {
    int code;
    std::string out, err;
};

inline CliResult cli(std::vector<std::string> args) {
    args.insert(args.begin(), "dppgemm-emu");
    std::vector<const char*> argv;
    for (const std::string& arg : args) argv.push_back(arg.c_str());
    std::ostringstream out, err;
    const int code = dppgemm::emu::tools::run_cli(static_cast<int>(argv.size()), argv.data(), out, err);
    return {code, out.str(), err.str()};
}

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace loader_test
