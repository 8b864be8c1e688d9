// Ordinary hipcc output beyond plain arithmetic: the kernels of hip/builtins.hip
// (64-bit and double atomics, atomics on __shared__, clock64/wall_clock64,
// dot-product builtins, the -O0 -g stack) for gfx906 and gfx90a at -O2 and
// -O0 -g, against host results.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "kernel_builder.hpp"

using namespace exec_test;

namespace {

struct Build {
    const char* arch;
    const char* options;
};
constexpr Build builds[] = {{"gfx906", "-O2"}, {"gfx906", "-O0 -g"}, {"gfx90a", "-O2"}, {"gfx90a", "-O0 -g"}};

Program hip_program(const Build& b, const char* kernel) {
    const CodeObject& co = hip_code_object("builtins.hip", b.arch, b.options);
    return build_program(co, co.kernel(kernel));
}

i32 sext(u32 x, unsigned bits) { return i32(x << (32 - bits)) >> (32 - bits); }

}  // namespace

// One test case, so that one process compiles the four builds once (sections share the cache).
TEST_CASE("hipcc programs for gfx906 and gfx90a at -O2 and -O0 -g against host results", "[hip]") {
    SECTION("64-bit and double atomicAdd/Min/Max/CAS on global memory") {
        for (const Build& b : builds) {
            INFO(b.arch << " " << b.options);
            const Program p = hip_program(b, "atomics64");
            const int n = 300;
            std::vector<u64> in(n);
            for (int i = 0; i < n; ++i) in[i] = (u64(i + 1) * 0x9e3779b97f4a7c15ull) >> (i % 13);
            DeviceMemory memory;
            const u64 d_in = memory.allocate(8 * n), d_counters = memory.allocate(32), d_sum = memory.allocate(8);
            memory.write(d_in, in.data(), 8 * n);
            const u64 init[4] = {0, ~0ull, 0, 0};
            memory.write(d_counters, init, 32);
            run_1d(memory, p, n, 128, 2, d_in, d_counters, d_sum, n);
            u64 got[4];
            double sum = 0;
            memory.read(d_counters, got, 32);
            memory.read(d_sum, &sum, 8);
            u64 want_sum = 0, want_min = ~0ull, want_max = 0;
            double want_double = 0;  // multiples of 1/4 below 2^24: exact in any order
            for (u64 v : in) {
                want_sum += v;
                want_min = std::min(want_min, v);
                want_max = std::max(want_max, v);
                want_double += double(v & 0xffff) * 0.25;
            }
            CHECK(got[0] == want_sum);
            CHECK(got[1] == want_min);
            CHECK(got[2] == want_max);
            CHECK(got[3] == 2 * want_sum);
            CHECK(sum == want_double);
        }
    }

    SECTION("atomicMin/Max/Add on __shared__ with the old value used") {
        for (const Build& b : builds) {
            INFO(b.arch << " " << b.options);
            const Program p = hip_program(b, "shared_minmax");
            const int n = 300, block = 128, groups = (n + block - 1) / block;
            std::vector<i32> in(n);
            for (int i = 0; i < n; ++i) in[i] = (i * 7919) % 1000 - 500;
            DeviceMemory memory;
            const u64 d_in = memory.allocate(4 * n), d_out = memory.allocate(12 * groups),
                      d_first = memory.allocate(4 * n);
            memory.write(d_in, in.data(), 4 * n);
            run_1d(memory, p, n, block, 2, d_in, d_out, d_first, n);
            std::vector<i32> out(3 * groups);
            std::vector<u32> first(n);
            memory.read(d_out, out.data(), 12 * groups);
            memory.read(d_first, first.data(), 4 * n);
            for (int g = 0; g < groups; ++g) {
                i32 low = 0x7fffffff, high = -0x7fffffff - 1;
                u64 total = 0;
                for (int i = g * block; i < (g + 1) * block; ++i) {
                    const i32 v = i < n ? in[i] : 0;
                    low = std::min(low, v);
                    high = std::max(high, v);
                    total += u32(v);
                }
                CHECK(out[3 * g] == low);
                CHECK(out[3 * g + 1] == high);
                CHECK(out[3 * g + 2] == i32(u32(total)));
                // The lane holding the minimum saw an old value at least as large.
                for (int i = g * block; i < std::min(n, (g + 1) * block); ++i)
                    if (in[i] == low) CHECK(first[i] == 1);
            }
        }
    }

    SECTION("clock64 and wall_clock64 never go backwards") {
        for (const Build& b : builds) {
            INFO(b.arch << " " << b.options);
            const Program p = hip_program(b, "clocks");
            DeviceMemory memory;
            const u64 d_out = memory.allocate(8 * 4 * 128);
            run_1d(memory, p, 128, 128, 1, d_out);
            std::vector<u64> out(4 * 128);
            memory.read(d_out, out.data(), out.size() * 8);
            for (int i = 0; i < 128; ++i) {
                INFO("work-item " << i);
                CHECK(out[4 * i] != 0);
                CHECK(out[4 * i] <= out[4 * i + 1]);
                CHECK(out[4 * i + 2] != 0);
                CHECK(out[4 * i + 2] <= out[4 * i + 3]);
            }
            // The second wave starts after the first has ended (one host thread, waves in turn up to s_endpgm).
            CHECK(out[4 * 0 + 1] <= out[4 * 64]);
        }
    }

    SECTION("__builtin_amdgcn_sdot2/udot4/sdot8/fdot2") {
        for (const Build& b : builds) {
            INFO(b.arch << " " << b.options);
            const Program p = hip_program(b, "dots");
            const int n = 200;
            std::vector<i32> a(n), bb(n), c(n);
            u64 state = 12345;
            auto next = [&] {
                state = state * 6364136223846793005ull + 1442695040888963407ull;
                return i32(state >> 32);
            };
            for (int i = 0; i < n; ++i) a[i] = next(), bb[i] = next(), c[i] = next();
            DeviceMemory memory;
            const u64 da = memory.allocate(4 * n), db = memory.allocate(4 * n), dc = memory.allocate(4 * n);
            const u64 d_out = memory.allocate(12 * n), d_fout = memory.allocate(4 * n);
            memory.write(da, a.data(), 4 * n);
            memory.write(db, bb.data(), 4 * n);
            memory.write(dc, c.data(), 4 * n);
            run_1d(memory, p, n, 64, 2, da, db, dc, d_out, d_fout, n);
            std::vector<i32> out(3 * n);
            std::vector<float> fout(n);
            memory.read(d_out, out.data(), 12 * n);
            memory.read(d_fout, fout.data(), 4 * n);
            for (int i = 0; i < n; ++i) {
                const u32 x = u32(a[i]), y = u32(bb[i]);
                i64 sdot2 = c[i], sdot8 = c[i];
                u64 udot4 = u32(c[i]);
                for (int k = 0; k < 2; ++k) sdot2 += i64(sext(x >> (16 * k), 16)) * sext(y >> (16 * k), 16);
                for (int k = 0; k < 4; ++k) udot4 += u64((x >> (8 * k)) & 0xff) * ((y >> (8 * k)) & 0xff);
                for (int k = 0; k < 8; ++k) sdot8 += i64(sext(x >> (4 * k), 4)) * sext(y >> (4 * k), 4);
                INFO("i " << i);
                CHECK(out[3 * i] == i32(u32(sdot2)));
                CHECK(u32(out[3 * i + 1]) == u32(udot4));
                CHECK(out[3 * i + 2] == i32(u32(sdot8)));
                const float want =
                    float(a[i] % 7) * 0.5f * float(c[i] % 3) + float(bb[i] % 5) * 0.25f * -1.5f + float(i);
                CHECK(fout[i] == want);
            }
        }
    }

    SECTION("sin/cos of double, large arguments included (v_trig_preop_f64)") {
        for (const Build& b : builds) {
            INFO(b.arch << " " << b.options);
            const Program p = hip_program(b, "sines");
            const std::vector<double> x = {0.5,  -2.0,    100.0,    1e5,   -3.7e9,
                                           1e22, 6.0e100, -1.2e200, 1e300, 0x1.fffffffffffffp1023};
            const int n = int(x.size());
            DeviceMemory memory;
            const u64 d_x = memory.allocate(8 * n), d_out = memory.allocate(16 * n);
            memory.write(d_x, x.data(), 8 * n);
            run_1d(memory, p, n, 64, 1, d_x, d_out, n);
            std::vector<double> out(2 * n);
            memory.read(d_out, out.data(), 16 * n);
            // The device library's sin/cos are within 1 ulp (ROCm's ocml); host libm is within 1 ulp of the exact
            // value.
            auto ulps = [](double a, double b) {
                i64 ia, ib;
                std::memcpy(&ia, &a, 8);
                std::memcpy(&ib, &b, 8);
                if (ia < 0) ia = INT64_MIN - ia;
                if (ib < 0) ib = INT64_MIN - ib;
                return ia > ib ? u64(ia - ib) : u64(ib - ia);
            };
            for (int i = 0; i < n; ++i) {
                INFO("x = " << x[i] << ": sin " << out[2 * i] << " vs " << std::sin(x[i]) << ", cos " << out[2 * i + 1]
                            << " vs " << std::cos(x[i]));
                CHECK(ulps(out[2 * i], std::sin(x[i])) <= 2);
                CHECK(ulps(out[2 * i + 1], std::cos(x[i])) <= 2);
            }
        }
    }

    SECTION("local arrays and a non-inlined call use the stack (-O0 reads SH_MEM_BASES)") {
        for (const Build& b : builds) {
            INFO(b.arch << " " << b.options);
            const Program p = hip_program(b, "stack");
            const int n = 150;
            std::vector<i32> in(n);
            for (int i = 0; i < n; ++i) in[i] = (i * 31 + 7) % 101;
            DeviceMemory memory;
            const u64 d_in = memory.allocate(4 * n), d_out = memory.allocate(4 * n);
            memory.write(d_in, in.data(), 4 * n);
            run_1d(memory, p, n, 64, 2, d_in, d_out, n);
            std::vector<i32> out(n);
            memory.read(d_out, out.data(), 4 * n);
            for (int i = 0; i < n; ++i) {
                i32 local[16];
                for (int k = 0; k < 16; ++k) local[k] = in[(i + k) % n];
                local[in[i] & 15] += 1000;
                i32 want = 0;
                for (int k = 0; k < 16; ++k) want += local[k] * (k + 1);
                INFO("i " << i);
                CHECK(out[i] == want);
            }
        }
    }
}
