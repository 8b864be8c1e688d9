// Kernels compiled from HIP C++ by hipcc (code object v4, gfx906) run on the
// emulator and match host computations: vector add, a naive SGEMM (hipcc
// contracts acc += a * b into v_fmac_f32), an LDS tree reduction with
// __syncthreads, warp shuffles (ds_bpermute_b32).

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <random>

#include "kernel_builder.hpp"

using namespace exec_test;

namespace {

struct Device {
    DeviceMemory memory;
    std::uint64_t upload(const void* data, std::size_t bytes) {
        const std::uint64_t a = memory.allocate(bytes);
        memory.write(a, data, bytes);
        return a;
    }
    template <class T>
    std::vector<T> download(std::uint64_t address, std::size_t count) {
        std::vector<T> v(count);
        memory.read(address, v.data(), count * sizeof(T));
        return v;
    }
};

DispatchResult run(Device& d, const Program& p, const Kernargs& args, std::array<std::uint32_t, 3> grid,
                   std::array<std::uint32_t, 3> block) {
    LaunchConfig config;
    config.grid = grid;
    config.block = block;
    config.kernarg = args.bytes();
    config.threads = 2;
    const DispatchResult r = launch(d.memory, p, config);
    INFO((r.fault ? r.fault->message : std::string()));
    REQUIRE(r.ok());
    return r;
}

}  // namespace

TEST_CASE("hipcc vector add", "[hip]") {
    const Program p = build_program(hip_kernels(), hip_kernels().kernel("vadd"));
    const int n = 1000;  // not a multiple of the block
    std::vector<float> a(n), b(n);
    for (int i = 0; i < n; ++i) a[i] = 0.5f * i, b[i] = 3.0f - i;
    Device d;
    const std::uint64_t da = d.upload(a.data(), 4 * n), db = d.upload(b.data(), 4 * n);
    const std::uint64_t dc = d.memory.allocate(4 * n);
    Kernargs args(p);
    args.set(0, da).set(1, db).set(2, dc).set(3, n);
    run(d, p, args, {4, 1, 1}, {256, 1, 1});
    const auto c = d.download<float>(dc, n);
    for (int i = 0; i < n; ++i) CHECK(c[i] == a[i] + b[i]);
}

TEST_CASE("hipcc naive SGEMM (2D grid, fused multiply-add)", "[hip]") {
    const Program p = build_program(hip_kernels(), hip_kernels().kernel("naive_sgemm"));
    const int m = 37, n = 21, k = 13;
    std::mt19937 rng(2);
    std::uniform_real_distribution<float> dist(-1, 1);
    std::vector<float> a(m * k), b(k * n);
    for (float& x : a) x = dist(rng);
    for (float& x : b) x = dist(rng);
    Device d;
    const std::uint64_t da = d.upload(a.data(), 4 * a.size()), db = d.upload(b.data(), 4 * b.size());
    const std::uint64_t dc = d.memory.allocate(4 * m * n);
    Kernargs args(p);
    args.set(0, da).set(1, db).set(2, dc).set(3, m).set(4, n).set(5, k);
    run(d, p, args, {3, 3, 1}, {16, 8, 1});
    const auto c = d.download<float>(dc, m * n);
    for (int col = 0; col < n; ++col)
        for (int row = 0; row < m; ++row) {
            float acc = 0.0f;
            for (int i = 0; i < k; ++i) acc = std::fma(a[row + i * m], b[i + col * k], acc);
            CHECK(c[row + col * m] == acc);
        }
}

TEST_CASE("hipcc LDS reduction with __syncthreads", "[hip][barrier]") {
    const Program p = build_program(hip_kernels(), hip_kernels().kernel("reduce"));
    const int n = 1000, groups = 4;
    std::vector<float> in(n);
    for (int i = 0; i < n; ++i) in[i] = float(i % 13);  // exact sums in float
    Device d;
    const std::uint64_t din = d.upload(in.data(), 4 * n), dout = d.memory.allocate(4 * groups);
    Kernargs args(p);
    args.set(0, din).set(1, dout).set(2, n);
    const DispatchResult r = run(d, p, args, {groups, 1, 1}, {256, 1, 1});
    const auto out = d.download<float>(dout, groups);
    for (int g = 0; g < groups; ++g) {
        float sum = 0;
        for (int i = g * 256; i < std::min(n, (g + 1) * 256); ++i) sum += in[i];
        CHECK(out[g] == sum);
    }
    CHECK(r.counters[InstClass::barrier] > 0);
}

TEST_CASE("hipcc warp shuffles", "[hip][lanes]") {
    const Program p = build_program(hip_kernels(), hip_kernels().kernel("shuffle"));
    std::vector<int> in(64);
    for (int i = 0; i < 64; ++i) in[i] = i * i + 1;
    Device d;
    const std::uint64_t din = d.upload(in.data(), 256), dout = d.memory.allocate(256);
    Kernargs args(p);
    args.set(0, din).set(1, dout);
    run(d, p, args, {1, 1, 1}, {64, 1, 1});
    const auto out = d.download<int>(dout, 64);
    std::vector<int> v(in), w(64), x(64);
    for (int t = 0; t < 64; ++t) w[t] = v[t] + v[t ^ 1];
    for (int t = 0; t < 64; ++t) x[t] = w[t] + (t + 2 < 64 ? w[t + 2] : w[t]);  // __shfl_down keeps out-of-range lanes
    for (int t = 0; t < 64; ++t) CHECK(out[t] == x[t] + x[5]);
}
