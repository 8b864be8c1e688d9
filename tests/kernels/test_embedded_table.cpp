// The table compiled into the library holds every code object, byte for byte.
#include <catch2/catch.hpp>

#include "../support/kernel_table.hpp"
#include "dppgemm/code_objects.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

TEST_CASE("the embedded table holds every code object, identical to the built file") {
    const size_t count = dppgemm_code_object_count();
    // every variant row on every kernel target with its features, 4 layouts each
    CHECK(count == dppgemm_test::expected_code_objects());
    std::set<std::string> keys;
    for (size_t i = 0; i < count; ++i) {
        const dppgemm_code_object* co = dppgemm_code_object_at(i);
        REQUIRE(co);
        CAPTURE(co->kernel_name, co->target);
        CHECK(std::string(co->kernel_name) == std::string("dppgemm_sgemm_") + co->variant + "_" + co->layout);
        keys.insert(std::string(co->target) + "/" + co->kernel_name);

        const std::string path =
            std::string(DPPGEMM_CODE_OBJECT_DIR) + "/" + co->target + "/" + co->kernel_name + ".co";
        std::ifstream file(path, std::ios::binary);
        REQUIRE(file);
        const std::vector<unsigned char> bytes{std::istreambuf_iterator<char>(file), {}};
        REQUIRE(bytes.size() == co->size);
        CHECK(std::equal(bytes.begin(), bytes.end(), co->data));
        CHECK(dppgemm_find_code_object(co->target, co->variant, co->layout) == co);
    }
    CHECK(keys.size() == count);
    CHECK(dppgemm_code_object_at(count) == nullptr);
    CHECK(dppgemm_find_code_object("gfx1100", "dpp1", "NN") == nullptr);
    CHECK(dppgemm_find_code_object("gfx906", "bcast", "NN") == nullptr);
    CHECK(dppgemm_find_code_object("gfx906", "dpp4", "NN") == nullptr);
    CHECK(dppgemm_find_code_object(nullptr, "dpp1", "NN") == nullptr);
    CHECK(dppgemm_find_code_object_for_arch("gfx90a:sramecc+:xnack-", "dpp2", "TN") ==
          dppgemm_find_code_object("gfx90a", "dpp2", "TN"));
    CHECK(dppgemm_find_code_object_for_arch("gfx906", "dpp0", "NT") ==
          dppgemm_find_code_object("gfx906", "dpp0", "NT"));
    CHECK(dppgemm_find_code_object_for_arch("gfx906", "dpp0", "NT") != nullptr);
    CHECK(dppgemm_find_code_object_for_arch("gfx1030:xnack-", "dpp0", "NT") == nullptr);
    CHECK(dppgemm_find_code_object_for_arch(nullptr, "dpp0", "NT") == nullptr);
}
