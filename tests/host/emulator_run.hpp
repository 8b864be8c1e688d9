// A dppgemm kernel on the emulator's own API: what every other path (the
// library's backends, hipemu) is compared with.
#pragma once

#include <catch2/catch.hpp>

#include <string_view>
#include <vector>

#include "dppgemm/code_objects.h"
#include "dppgemm/kernargs.h"
#include "emu/exec/dispatch.hpp"
#include "emu/loader/code_object.hpp"

// One device buffer per operand holding exactly the host array; `args` gives
// everything but the three addresses. `counters`, if given, receives the dispatch's.
inline std::vector<float> run_on_emulator(const dppgemm_code_object& co, const std::vector<float>& a,
                                          const std::vector<float>& b, const std::vector<float>& c,
                                          dppgemm_sgemm_kernargs args, dppgemm::emu::Counters* counters = nullptr) {
    using namespace dppgemm::emu;
    const CodeObject object = load_code_object(co.data, co.size);
    const Program program = build_program(object, object.kernel(co.kernel_name));
    DeviceMemory memory;
    args.a = memory.allocate(a.size() * 4);
    args.b = memory.allocate(b.size() * 4);
    args.c = memory.allocate(c.size() * 4);
    memory.write(args.a, a.data(), a.size() * 4);
    memory.write(args.b, b.data(), b.size() * 4);
    memory.write(args.c, c.data(), c.size() * 4);
    LaunchConfig config;
    // The macro tile of the code object's row of the variant table.
    unsigned tile = 0;
#define DPPGEMM_VARIANT(name, template_file, defines, features, macro_tile, micro_tile, requests, extra_valu, idea) \
    if (std::string_view(co.variant) == #name) tile = macro_tile;
#include "dppgemm/variants.def"
#undef DPPGEMM_VARIANT
    REQUIRE(tile != 0);
    config.grid = {(args.size_m + tile - 1) / tile, (args.size_n + tile - 1) / tile, 1};
    config.block = {DPPGEMM_SGEMM_BLOCK_SIZE, 1, 1};
    config.kernarg.assign(reinterpret_cast<const std::uint8_t*>(&args),
                          reinterpret_cast<const std::uint8_t*>(&args + 1));
    const DispatchResult result = launch(memory, program, config);
    REQUIRE(result.ok());
    if (counters) *counters = result.counters;
    std::vector<float> out(c.size());
    memory.read(args.c, out.data(), out.size() * 4);
    return out;
}
