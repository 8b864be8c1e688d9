// The counter table (dppgemm/counters.def) is what docs/host.md shows: one
// doc row per table row, in table order, with the same words.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "dppgemm/dppgemm.hpp"
#include "test_toolchain.hpp"

namespace {

// The rows of the first Markdown table after `heading`, header and rule left out.
std::vector<std::string> table_after(const std::string& path, const std::string& heading) {
    std::ifstream in(path);
    REQUIRE(in);
    std::vector<std::string> rows;
    bool in_section = false;
    for (std::string line; std::getline(in, line);) {
        if (line == heading) in_section = true;
        else if (in_section && line.rfind("|", 0) == 0) rows.push_back(line);
        else if (in_section && !rows.empty()) break;
    }
    if (rows.size() >= 2) rows.erase(rows.begin(), rows.begin() + 2);
    return rows;
}

}  // namespace

TEST_CASE("counters: docs/host.md's table is counters.def, row for row") {
    std::vector<std::string> expected = {
        "| `wave_instructions` | sum | every instruction once: the sum of the classes |"};
    for (const dppgemm::CounterInfo& info : dppgemm::counter_table)
        expected.push_back(std::string("| `") + info.name + "` | " + (info.instruction_class ? "class" : "count") +
                           " | " + info.counts + " |");
    CHECK(table_after(dppgemm::test_support::source_path("docs/host.md"), "### Counters") == expected);
}

TEST_CASE("counters: wave_instructions is the sum of the classes, every member one row") {
    dppgemm::Counters c;
    std::uint64_t value = 1, classes = 0;
    for (const dppgemm::CounterInfo& info : dppgemm::counter_table) {
        c.*info.member = value;
        if (info.instruction_class) classes += value;
        value *= 2;
    }
    CHECK(c.wave_instructions() == classes);
    // Every member was set once: a member missing from the table would stay 0.
    CHECK(sizeof(dppgemm::Counters) == std::size(dppgemm::counter_table) * sizeof(std::uint64_t));
}
