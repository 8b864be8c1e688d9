// A dppgemm kernel on the emulator's own API: what every other path (the
// library's backends, hipemu) is compared with.
#pragma once

#include <catch2/catch.hpp>

#include <string_view>
#include <vector>

#include "../support/sgemm_launch.hpp"
#include "dppgemm/code_objects.h"
#include "dppgemm/kernargs.h"
#include "emu/exec/dispatch.hpp"
#include "emu/loader/code_object.hpp"

// One device buffer per operand holding exactly the host array; `args` gives
// everything but the three addresses. `counters`, if given, receives the dispatch's.
inline std::vector<float> run_on_emulator(const dppgemm_code_object& co, const std::vector<float>& a,
                                          const std::vector<float>& b, const std::vector<float>& c,
                                          const dppgemm_sgemm_kernargs& args,
                                          dppgemm::emu::Counters* counters = nullptr) {
    using namespace dppgemm::emu;
    const CodeObject object = load_code_object(co.data, co.size);
    const Program program = build_program(object, object.kernel(co.kernel_name));
    // The macro tile of the code object's row of the variant table.
    unsigned tile = 0;
#define DPPGEMM_VARIANT(name, template_file, defines, features, macro_tile, micro_tile, requests, extra_valu, idea) \
    if (std::string_view(co.variant) == #name) tile = macro_tile;
#include "dppgemm/variants.def"
#undef DPPGEMM_VARIANT
    REQUIRE(tile != 0);
    dppgemm::test_support::SgemmLaunch run(a, b, c, args, tile);
    const DispatchResult result = launch(run.memory, program, run.config);
    REQUIRE(result.ok());
    if (counters) *counters = result.counters;
    return run.c();
}
