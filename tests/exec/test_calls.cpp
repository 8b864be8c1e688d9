// Calls to functions outside the kernel's code: build_program(CodeObject, ...)
// decodes every function of the code object beside the kernel, so
// s_swappc_b64 / s_setpc_b64 reach them by address and return into the kernel.

#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

#include "kernel_builder.hpp"

using namespace exec_test;

namespace {

int host_fibonacci(int n) { return n < 2 ? n : host_fibonacci(n - 1) + host_fibonacci(n - 2); }

}  // namespace

TEST_CASE("hipcc kernel calling a non-inlined and a recursive device function", "[calls][hip]") {
    const Program p = build_program(hip_kernels(), hip_kernels().kernel("calls"));
    const int n = 300;  // not a multiple of the block
    std::vector<float> in(n);
    for (int i = 0; i < n; ++i) in[i] = 0.37f * float(i) - 20.0f;
    DeviceMemory memory;
    const std::uint64_t device_in = memory.allocate(4 * n), device_out = memory.allocate(4 * n);
    memory.write(device_in, in.data(), 4 * n);
    run_1d(memory, p, n, 128, 2, device_in, device_out, n);
    std::vector<float> out(n);
    memory.read(device_out, out.data(), 4 * n);
    for (int i = 0; i < n; ++i) CHECK(out[i] == (2.0f * in[i] + 1.0f) + float(host_fibonacci(i % 10)));
}

TEST_CASE("s_swappc_b64 into a function after the kernel, s_setpc_b64 back", "[calls]") {
    // plus_work_item is its own symbol in its own section, so not part of kernel k's code.
    const CodeObject co = assemble_kernel(R"(
  s_getpc_b64 s[20:21]
  s_add_u32 s20, s20, plus_work_item@rel32@lo+4
  s_addc_u32 s21, s21, plus_work_item@rel32@hi+12
  v_mov_b32 v5, 7
  s_swappc_b64 s[30:31], s[20:21]
  s_swappc_b64 s[30:31], s[20:21]
  global_store_dword v1, v5, s[4:5]
  s_endpgm
.section .text.plus_work_item,"ax",@progbits
.p2align 2
.type plus_work_item,@function
plus_work_item:
  v_add_u32 v5, v5, v0
  s_setpc_b64 s[30:31]
.Lplus_work_item_end:
.size plus_work_item, .Lplus_work_item_end-plus_work_item
.text
)");
    const Program program = build_program(co, co.kernels.at(0));
    const auto returns = std::find_if(program.insts.begin(), program.insts.end(),
                                      [](const Inst& inst) { return inst.op == Op::s_setpc_b64; });
    REQUIRE(returns != program.insts.end());
    CHECK(program.disassemble(static_cast<std::uint32_t>(returns - program.insts.begin())) == "s_setpc_b64 s[30:31]");

    TestRun run(64);
    const DispatchResult r = run.run(program);
    INFO((r.fault ? r.fault->message : std::string()));
    REQUIRE(r.ok());
    const auto out = run.read(0, 64);
    for (std::uint32_t lane = 0; lane < 64; ++lane) CHECK(out[lane] == 7 + 2 * lane);
}
