#pragma once
// dppgemm-emu's command line: parses argv, runs the subcommand, returns the
// exit code. main() is a one-line call; tests call it with their own streams.

#include <iosfwd>

namespace dppgemm::emu::tools {

int run_cli(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace dppgemm::emu::tools
