// The rule table (emu/check/rules.def) is what docs/checkers.md shows: every
// rule has its row there, and the wait-state table is the table's numbers.
#include <catch2/catch.hpp>

#include <fstream>
#include <string>
#include <vector>

#include "emu/check/finding.hpp"
#include "test_toolchain.hpp"

using namespace dppgemm::emu::check;

namespace {

std::vector<std::string> doc_lines() {
    std::ifstream in(dppgemm::test_support::source_path("docs/checkers.md"));
    REQUIRE(in);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

// The doc's row of a wait-state rule, from the table.
std::string wait_state_row(const RuleInfo& r) {
    const std::string states = r.wait_states == r.gfx94x_wait_states ? std::to_string(r.wait_states)
                               : r.wait_states == 0                  ? std::to_string(r.gfx94x_wait_states)
                                                                     : std::to_string(r.wait_states) +
                                                          " (gfx94x: " + std::to_string(r.gfx94x_wait_states) + ")";
    const std::string targets = r.wait_states == 0 ? "gfx940, gfx942" : "all";
    return std::string("| `") + r.name + "` | " + r.first + " | " + r.second + " | " + states + " | " + targets + " |";
}

// The doc's row of an MFMA rule: per column the wait states by passes
// 2/4/8/16 ("-": none), one number where they are all the same.
std::string mfma_row(const RuleInfo& r) {
    std::string row = std::string("| `") + r.name + "` | " + r.first + " | " + r.second + " |";
    for (const auto& column : r.mfma_wait_states) {
        auto cell = [](unsigned states) { return states ? std::to_string(states) : std::string("-"); };
        std::string text = cell(column[0]);
        if (column[1] != column[0] || column[2] != column[0] || column[3] != column[0])
            for (unsigned i = 1; i < 4; ++i) text += "/" + cell(column[i]);
        row += " " + text + " |";
    }
    return row;
}

}  // namespace

TEST_CASE("rules: docs/checkers.md has one row per rule, the wait-state rows with the table's numbers") {
    const std::vector<std::string> lines = doc_lines();
    for (const RuleInfo& r : rule_table) {
        INFO(r.name);
        const std::string start = std::string("| `") + r.name + "` |";
        std::vector<std::string> rows;
        for (const std::string& line : lines)
            if (line.rfind(start, 0) == 0) rows.push_back(line);
        REQUIRE(rows.size() == 1);
        if (r.wait_state_rule) CHECK(rows[0] == wait_state_row(r));
        if (r.mfma_rule) CHECK(rows[0] == mfma_row(r));
    }
}

TEST_CASE("rules: names are distinct and every wait-state rule needs wait states somewhere") {
    for (std::size_t i = 0; i < rule_count; ++i) {
        const RuleInfo& r = rule_table[i];
        INFO(r.name);
        CHECK(static_cast<std::size_t>(r.rule) == i);
        CHECK(rule_name(r.rule) == std::string(r.name));
        for (std::size_t j = 0; j < i; ++j) CHECK(std::string(rule_table[j].name) != r.name);
        if (r.wait_state_rule) CHECK(std::max(r.wait_states, r.gfx94x_wait_states) > 0);
        else CHECK(wait_states(r.rule, false) + wait_states(r.rule, true) == 0);
        unsigned most = 0;
        for (const auto& column : r.mfma_wait_states)
            for (std::uint8_t states : column) most = std::max<unsigned>(most, states);
        CHECK((most > 0) == r.mfma_rule);
    }
    CHECK(wait_states(Rule::store_data_overwrite, false) == 1);
    CHECK(wait_states(Rule::store_data_overwrite, true) == 2);
    CHECK(wait_states(Rule::valu_sgpr_after_valu, false) == 0);
    // LLVM's GFX940_XDL8PassWritesVGPROverlappedSMFMASrcCWaitStates and SMFMA32x32WriteVgprVALUMemExpReadWaitStates.
    CHECK(mfma_wait_states(Rule::mfma_srcc_overlap, MfmaColumn::gfx94x_xdl, 8) == 9);
    CHECK(mfma_wait_states(Rule::valu_read_after_mfma, MfmaColumn::gfx90a, 16) == 19);
}
