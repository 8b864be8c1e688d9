#include <iostream>

#include "emu/tools/cli.hpp"

int main(int argc, char** argv) { return dppgemm::emu::tools::run_cli(argc, argv, std::cout, std::cerr); }
