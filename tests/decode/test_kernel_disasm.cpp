// Every instruction of every dppgemm kernel code object disassembles exactly
// as llvm-objdump prints it (LLVM 15 for gfx900..gfx90a, LLVM 19 for gfx942).

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <sstream>

#include "compare.hpp"

using namespace dppgemm::emu;
using namespace dppgemm::emu::test;

TEST_CASE("every dppgemm kernel disassembles identically to llvm-objdump", "[decode][kernels]") {
    namespace fs = std::filesystem;
    const fs::path dir = DPPGEMM_CODE_OBJECT_DIR;
    std::istringstream targets(DPPGEMM_KERNEL_TARGETS_CSV);
    std::string name;
    std::size_t objects = 0, instructions = 0;
    while (std::getline(targets, name, ',')) {
        auto target = target_from_label(name);
        INFO(name);
        REQUIRE(target.has_value());
        REQUIRE(fs::is_directory(dir / name));
        std::vector<std::string> paths;
        for (const fs::directory_entry& entry : fs::directory_iterator(dir / name))
            if (entry.path().extension() == ".co") paths.push_back(entry.path().string());
        std::sort(paths.begin(), paths.end());
        for (const auto& [path, lines] : objdump_each(llvm_for(*target), paths)) {
            INFO(path);
            REQUIRE(lines.size() > 50);
            std::vector<Mismatch> bad = compare(*target, lines);
            if (!bad.empty()) WARN(mismatch_text(bad, "kernel"));
            CHECK(bad.empty());
            ++objects;
            instructions += lines.size();
        }
    }
    WARN(objects << " code objects, " << instructions << " instructions compared");
    CHECK(objects >= 12);
}
